// SPDX-License-Identifier: MIT
// Surfaces of section (ensemble/section_crossing.hpp) on the CPU lanes, against the separable
// harmonic oscillator V = (x² + y²)/2, whose crossings are known exactly: with x(t) = A cos(t + φ)
// the crossings of x = 0 upwards (px = A > 0) fall at t_k = −π/2 − φ + 2πk, where the y motion
// (a rotation of (y, py) by the angle t) puts them; so they lie on the circle y² + py² = 2 E_y,
// are 2π apart, and converge at each method's order as dt halves. Also: the lanes give the bits
// of a scalar run of the same agent; crossings beyond the capacity are counted; bad sections
// are refused before any work.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/ensemble/section_crossing.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/jobs/ensemble_section.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;
constexpr double kPi = std::numbers::pi;
constexpr const char* kOscillator = "0.5*(x^2+y^2)";

// Starts (x, y, px, py) off the section, none crossing within 0.2 of t = 0 or t = 20.
std::vector<double> oscillator_rows() {
  return {0.5, 0.1, 0.0, 0.3, -0.3, 0.4, -0.2, -0.1, 0.2, -0.3, 0.6, 0.05, -0.4, 0.0, 0.3, 0.45};
}

// The exact crossings of start `row` up to t_end, as (x, y, px, py, t) rows.
std::vector<std::array<double, 5>> exact_crossings(const double* row, double t_end) {
  const double x0 = row[0], y0 = row[1], px0 = row[2], py0 = row[3];
  const double a = std::hypot(x0, px0), phi = std::atan2(-px0, x0);
  double t = std::fmod(-kPi / 2 - phi + 4 * kPi, 2 * kPi);
  std::vector<std::array<double, 5>> out;
  for (; t <= t_end; t += 2 * kPi)
    out.push_back({0.0, y0 * std::cos(t) + py0 * std::sin(t), a,
                   py0 * std::cos(t) - y0 * std::sin(t), t});
  return out;
}

SmallEnsemble oscillator(const std::string& integrator, double dt, double t_end) {
  SmallEnsemble e;
  e.potential = kOscillator;
  e.integrator = integrator;
  e.dt = dt;
  e.steps = static_cast<std::int64_t>(std::lround(t_end / dt));
  e.rows = oscillator_rows();
  e.section = {0, 0.0, +1, 8};
  return e;
}

// The largest difference of any recorded word (state and time) from the exact crossings; the
// counts must match exactly.
double crossing_error(const EnsembleOutcome& out, const SmallEnsemble& e, double t_end) {
  const int K = e.section.capacity, W = 5;
  double worst = 0;
  for (std::int64_t i = 0; i < out.trajectories; ++i) {
    const auto exact = exact_crossings(&e.rows[static_cast<std::size_t>(i) * 4], t_end);
    EXPECT_EQ(out.section_count[i], static_cast<std::int64_t>(exact.size())) << "trajectory " << i;
    for (std::size_t c = 0; c < exact.size() && c < static_cast<std::size_t>(K); ++c)
      for (int w = 0; w < W; ++w)
        worst = std::max(worst, std::abs(out.section_points[(i * K + c) * W + w] - exact[c][w]));
  }
  return worst;
}

// Each method's order on this problem: an Adams method started by Euler steps converges at
// order 2 at most (multistep/adams_bashforth.hpp).
int effective_order(const std::string& name) {
  const auto& info = ensemble_integrators()[static_cast<std::size_t>(ensemble_integrator_index(name))];
  return info.family == IntegratorFamily::multistep ? std::min(info.order, 2) : info.order;
}

// The observed order log2(e(h)/e(h/2)) may fall this far short of the method's (the ratio of
// two finite steps is not yet the limit); above it, within rounding, a lower order fails.
constexpr double kOrderSlack = 0.4;
// Errors below this are rounding (fp64, ~100 steps of order-one values), not truncation.
constexpr double kRoundingFloor = 1e-12;

TEST(EnsembleSection, CrossingsConvergeToTheExactOnesAtEachMethodsOrder) {
  const double t_end = 20;
  for (const auto& name : ensemble_integrator_names()) {
    const int p = effective_order(name);
    // Steps where each error is truncation, well above rounding: yoshida8's constant is large,
    // so its asymptotic order shows only from dt = 0.2 down.
    const bool composed8 = p == 8 && name == "yoshida8";
    const double h = p <= 1 ? 0.005 : p == 2 ? 0.02 : p <= 4 ? 0.1 : p == 5 || composed8 ? 0.2 : 0.4;
    const SmallEnsemble coarse = oscillator(name, h, t_end), fine = oscillator(name, h / 2, t_end);
    const double e1 = crossing_error(coarse.run(), coarse, t_end);
    const double e2 = crossing_error(fine.run(), fine, t_end);
    const double observed = std::log2(e1 / e2);
    std::printf("%-16s order %d: error %.3e at dt %g, %.3e at dt %g: observed order %.2f\n",
                name.c_str(), p, e1, h, e2, h / 2, observed);
    EXPECT_LT(e1, 0.1) << name;
    if (e2 > kRoundingFloor) {
      EXPECT_GT(observed, p - kOrderSlack) << name;
    }
  }
}

// rk4 at dt = 0.01 over t = 20: truncation ~1e-10 of order-one values.
constexpr double kOnTheCircle = 1e-8;

TEST(EnsembleSection, CrossingsLieOnTheCircleOfTheirYEnergyAndComeEvery2Pi) {
  for (const double tolerance : {0.0, 1e-10}) {
    SmallEnsemble e = oscillator(tolerance > 0 ? "dopri5" : "rk4", 0.01, 40);
    e.tolerance = tolerance;
    e.section.capacity = 16;
    const EnsembleOutcome out = e.run();
    for (std::int64_t i = 0; i < out.trajectories; ++i) {
      const double* row = &e.rows[static_cast<std::size_t>(i) * 4];
      const double ey = (row[1] * row[1] + row[3] * row[3]) / 2;
      ASSERT_GE(out.section_count[i], 6);
      for (std::int64_t c = 0; c < out.section_count[i]; ++c) {
        const double* s = &out.section_points[(i * 16 + c) * 5];
        EXPECT_EQ(s[0], 0.0) << "on the section exactly";
        EXPECT_GT(s[2], 0.0) << "upwards";
        EXPECT_NEAR(s[1] * s[1] + s[3] * s[3], 2 * ey, kOnTheCircle) << i << " " << c;
        if (c > 0) {
          EXPECT_NEAR(s[4] - s[-1], 2 * kPi, kOnTheCircle) << i << " " << c;
        }
      }
      for (std::int64_t c = out.section_count[i]; c < 16; ++c)
        EXPECT_TRUE(std::isnan(out.section_points[(i * 16 + c) * 5])) << "an empty slot";
    }
  }
}

TEST(EnsembleSection, DownAndBothWaysAreTheOtherHalfAndTheWhole) {
  SmallEnsemble up = oscillator("rk4", 0.01, 20), down = up, both = up;
  down.section.direction = -1;
  both.section.direction = 0;
  const EnsembleOutcome u = up.run(), d = down.run(), b = both.run();
  for (std::int64_t i = 0; i < u.trajectories; ++i) {
    EXPECT_EQ(b.section_count[i], u.section_count[i] + d.section_count[i]);
    for (std::int64_t c = 0; c < d.section_count[i]; ++c)
      EXPECT_LT(d.section_points[(i * 8 + c) * 5 + 2], 0.0) << "px < 0 going down";
  }
}

TEST(EnsembleSection, CrossingsBeyondTheCapacityAreCountedNotKept) {
  SmallEnsemble wide = oscillator("leapfrog", 0.01, 40), narrow = wide;
  narrow.section.capacity = 2;
  const EnsembleOutcome w = wide.run(), n = narrow.run();
  EXPECT_EQ(n.section_count, w.section_count) << "every crossing counted";
  for (std::int64_t i = 0; i < n.trajectories; ++i) {
    ASSERT_GT(n.section_count[i], 2);
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < 5; ++k)
        EXPECT_EQ(n.section_points[(i * 2 + c) * 5 + k], w.section_points[(i * 8 + c) * 5 + k]);
  }
  EnsembleRunResult r;
  r.outcome.section_count = n.section_count;
  summarise_section(r, 2);
  EXPECT_EQ(r.trajectories_beyond, n.trajectories);
  EXPECT_EQ(r.crossings_beyond, r.crossings - 2 * n.trajectories);
}

// A scalar run of the agent (integrate_watched_trajectory, one trajectory) and the lanes of every
// CPU kernel and thread count give the same bits.
template <class Table, class T>
std::vector<double> scalar_crossings(const double* row, const SmallEnsemble& e) {
  using System = EnsembleSystem<HenonHeilesProblem, T>;
  typename System::State st{{T(row[0]), T(row[1])}, {T(row[2]), T(row[3])}};
  const auto field = HenonHeilesProblem::field<T>({}, typename System::Parameters{});
  std::vector<double> found;
  const auto record = [&](bool, const T (&y)[4], const T& t) {
    for (int w = 0; w < 4; ++w) found.push_back(static_cast<double>(y[w]));
    found.push_back(static_cast<double>(t));
  };
  const auto watch = watch_section<HenonHeilesProblem, Table, T>(field, e.section, record);
  integrate_watched_trajectory<HenonHeilesProblem, Table, T>(
      st, field, T(e.dt), e.steps, e.samples, [](int, const auto&) {}, watch);
  return found;
}

TEST(EnsembleSection, LanesGiveTheBitsOfAScalarRunOnEveryKernelAndThreadCount) {
  SmallEnsemble e;
  e.rows = test::henon_heiles_rows(0.125, 37);  // not a multiple of any vector width
  e.steps = 3000;
  e.section = {0, 0.0, +1, 64};
  for (const char* integrator : {"leapfrog", "rk4", "yoshida6", "ab4"})
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      e.integrator = integrator;
      e.precision = p;
      const EnsembleOutcome one = e.run(Backend::cpu, supported_lanes_kernel_names().back(), 1);
      for (std::int64_t i = 0; i < one.trajectories; ++i) {
        const double* row = &e.rows[static_cast<std::size_t>(i) * 4];
        const auto scalar = [&]<class T>(T) {
          return ensemble_integrator_index(integrator) == ensemble_integrator_index("leapfrog")
                     ? scalar_crossings<LeapfrogKDK, T>(row, e)
                 : ensemble_integrator_index(integrator) == ensemble_integrator_index("rk4")
                     ? scalar_crossings<ClassicRK4, T>(row, e)
                 : ensemble_integrator_index(integrator) == ensemble_integrator_index("yoshida6")
                     ? scalar_crossings<Yoshida6, T>(row, e)
                     : scalar_crossings<EulerStartedAdamsBashforth4, T>(row, e);
        };
        const std::vector<double> found = p == Precision::fp32 ? scalar(0.0f) : scalar(0.0);
        ASSERT_EQ(static_cast<std::int64_t>(found.size()) / 5, one.section_count[i]);
        ASSERT_GT(one.section_count[i], 2) << "a few crossings";
        for (std::size_t k = 0; k < found.size(); ++k)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(found[k]),
                    std::bit_cast<std::uint64_t>(one.section_points[i * 64 * 5 + k]))
              << integrator << " " << to_string(p) << " trajectory " << i << " word " << k;
      }
      for (const std::string& kernel : supported_lanes_kernel_names()) {
        const EnsembleOutcome other = e.run(Backend::cpu, kernel, 2);
        EXPECT_EQ(other.section_count, one.section_count) << kernel;
        for (std::size_t k = 0; k < one.section_points.size(); ++k)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(other.section_points[k]),
                    std::bit_cast<std::uint64_t>(one.section_points[k]))
              << integrator << " " << kernel << " " << k;
      }
    }
}

TEST(EnsembleSection, EveryProblemPrecisionAndControlRecordsCrossings) {
  // Lorenz through z = 27 (the plane of its classic return map), both ways.
  SmallEnsemble lorenz = test::lorenz_benchmark(16);
  lorenz.sweep.from = 24, lorenz.sweep.to = 28;  // ρ near 28: on the attractor
  lorenz.dt = 0.002;
  lorenz.steps = 10000;
  lorenz.section = {2, 27.0, 0, 100};
  for (Precision p : {Precision::fp64, Precision::fp32, Precision::mixed}) {
    lorenz.precision = p;
    for (const bool controlled : {false, true}) {
      lorenz.integrator = controlled ? "tsit5" : "rk4";
      lorenz.tolerance = controlled ? 10 * smallest_ensemble_tolerance(p) : 0.0;
      const EnsembleOutcome out = lorenz.run();
      const std::int64_t last = out.trajectories - 1;  // ρ = 28
      ASSERT_GT(out.section_count[last], 4) << to_string(p);
      const double z = out.section_points[(last * 100 + 1) * 4 + 2];
      EXPECT_EQ(z, p == Precision::fp32 ? double(27.0f) : 27.0) << "on the section exactly";
    }
  }
}

TEST(EnsembleSection, BadSectionsAreRefusedBeforeAnyWork) {
  SmallEnsemble e = oscillator("rk4", 0.01, 1);
  for (const EnsembleSection bad : {EnsembleSection{4, 0.0, 1, 8}, EnsembleSection{0, NAN, 1, 8},
                                    EnsembleSection{0, 0.0, 2, 8}, EnsembleSection{0, 0.0, 1, 0},
                                    EnsembleSection{0, 0.0, 1, kEnsembleMaxCrossings + 1}}) {
    e.section = bad;
    EXPECT_THROW(e.run(), ParameterError) << bad.word << " " << bad.value << " " << bad.capacity;
  }
  // The job's words: an unknown coordinate, one the problem lacks, no value, K out of range.
  EnsembleJob job;
  job.in_memory = true;
  job.out = "";
  job.resolution = 4;
  job.steps = 10;
  job.samples = 1;
  const auto refused = [&](const std::string& section, const std::string& problem,
                           const std::string& flag) {
    EnsembleJob j = job;
    j.section = section;
    j.problem = problem;
    try {
      validate(j);
      ADD_FAILURE() << section << " on " << problem << " was accepted";
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameter(), flag) << e.what();
      std::printf("refused: %s\n", e.what());
    }
  };
  refused("w=0", "henon-heiles", "--section");
  refused("z=27", "henon-heiles", "--section");
  refused("x", "henon-heiles", "--section");
  refused("x=zero", "henon-heiles", "--section");
  refused("px=0", "lorenz", "--section");
  for (const std::int64_t k :
       {std::int64_t{0}, std::int64_t{-3}, std::int64_t{kEnsembleMaxCrossings} + 1}) {
    EnsembleJob j = job;
    j.section = "x=0";
    j.max_crossings = k;
    EXPECT_THROW(validate(j), ParameterError) << k;
  }
  EnsembleJob absurd = job;  // a million crossings of each of 2^30 trajectories: refused as memory
  absurd.section = "x=0";
  absurd.max_crossings = kEnsembleMaxCrossings;
  absurd.resolution = 1 << 15;
  EXPECT_THROW(validate(absurd), InputError);
  job.section_plot = "section.png";  // without --section
  refused("", "henon-heiles", "--section-plot");
  job.section_plot = "";
  EnsembleJob fine = job;
  fine.section = "x=0";
  EXPECT_NO_THROW(validate(fine));
  fine.problem = "lorenz";
  fine.section = "z=27";
  EXPECT_NO_THROW(validate(fine));
}

}  // namespace
}  // namespace orrery
