// SPDX-License-Identifier: MIT
// The ensemble engine on the CPU lanes, against physics the tests compute for themselves: an
// orbit that symmetry keeps on a line stays on it exactly; the period of the Hénon–Heiles orbit
// on the y axis (a quadrature here) closes the orbit at the method's order; energy errors stay
// bounded for symplectic methods and grow linearly for RK4; first-order methods converge at their
// order on Lorenz; and every kernel and thread count gives the same bits.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <numbers>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

std::vector<std::string> second_order_integrators() { return ensemble_integrator_names(); }

TEST(Ensemble, OrbitOnTheSymmetryLineStaysOnIt) {
  // With x = px = 0, ax = −x − 2xy vanishes: the orbit moves on the y axis, and every step of
  // every method keeps x and px exactly 0 (0·anything and 0 + 0 round to 0).
  for (const auto& name : second_order_integrators())
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      SmallEnsemble e;
      e.integrator = name;
      e.precision = p;
      e.steps = 2000;
      e.rows = {0.0, 0.3, 0.0, 0.1, 0.0, -0.2, 0.0, -0.05};
      const EnsembleOutcome out = e.run();
      for (std::int64_t i = 0; i < out.trajectories; ++i) {
        EXPECT_EQ(out.final_state[i * 4 + 0], 0.0) << name << " " << to_string(p);
        EXPECT_EQ(out.final_state[i * 4 + 2], 0.0) << name << " " << to_string(p);
        EXPECT_NE(out.final_state[i * 4 + 1], e.rows[i * 4 + 1]) << "the orbit moved";
      }
    }
}

// The y-axis orbit of energy E between the turning points y1 < 0 < y2, the roots of
// y³ − 3y²/2 + 3E = 0 (with y3 > y2 the third): with y = c + r sin θ (c, r the midpoint and half
// width), T = 2 ∫ dθ / √((2/3)(y3 − y)) over [−π/2, π/2], a smooth integrand (the turning points'
// square-root singularities cancel).
struct AxisOrbit {
  double energy, y1, y2, y3, period;
};

AxisOrbit axis_orbit(double e) {
  const auto f = [e](double y) { return y * y * y - 1.5 * y * y + 3 * e; };
  const auto root = [&](double lo, double hi) {
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      ((f(lo) < 0) == (f(mid) < 0) ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
  };
  AxisOrbit o;
  o.energy = e;
  o.y1 = root(-1.0, 0.0);
  o.y2 = root(0.0, 1.0);
  o.y3 = root(1.0, 2.0);
  const double c = 0.5 * (o.y1 + o.y2), r = 0.5 * (o.y2 - o.y1);
  const int n = 20000;  // the midpoint rule on a smooth integrand: error far below 1e-14
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    const double theta = -std::numbers::pi / 2 + std::numbers::pi * (k + 0.5) / n;
    sum += 1.0 / std::sqrt((2.0 / 3.0) * (o.y3 - (c + r * std::sin(theta))));
  }
  o.period = 2 * sum * std::numbers::pi / n;
  return o;
}

// The distance from the start after one period, with `steps` steps.
double closing_error(const std::string& integrator, const AxisOrbit& o, std::int64_t steps) {
  SmallEnsemble e;
  e.integrator = integrator;
  e.dt = o.period / static_cast<double>(steps);
  e.steps = steps;
  // From the origin, moving up.
  const double py = std::sqrt(2 * o.energy);
  e.rows = {0.0, 0.0, 0.0, py};
  const EnsembleOutcome out = e.run();
  return std::hypot(out.final_state[1], out.final_state[3] - py);
}

// A closing error this large is the method's, not rounding's (10⁴ steps of ε ~ 10⁻¹⁶ each).
constexpr double kAboveRounding = 1e-12;

TEST(Ensemble, AxisOrbitClosesAfterItsPeriodAtTheMethodsOrder) {
  const AxisOrbit o = axis_orbit(0.1);
  ASSERT_GT(o.period, 2 * std::numbers::pi);  // softer than the harmonic well
  // Halving the step divides the error by 2^p; a ratio within [0.8, 1.25]·2^p holds once the
  // error is in its asymptotic range (the steps below are) and far above rounding.
  const struct {
    const char* name;
    int order;
    std::int64_t steps;
  } cases[] = {{"euler", 1, 4000},     {"midpoint", 2, 400},  {"rk4", 4, 100},
               {"leapfrog", 2, 400},   {"yoshida4", 4, 100},  {"yoshida6", 6, 40},
               {"dopri5", 5, 60}};
  // Not symplectic Euler: it is leapfrog conjugated by a half kick (K_{−h/2} ∘ LF^n ∘ K_{h/2}),
  // whose O(h) parts cancel where the orbit returns to its start, so it closes at order 2 —
  // seen here; its order 1 at other times is measured in tests/integrate/.
  for (const auto& c : cases) {
    const double coarse = closing_error(c.name, o, c.steps);
    const double fine = closing_error(c.name, o, 2 * c.steps);
    const double ratio = coarse / fine, nominal = std::pow(2.0, c.order);
    EXPECT_GT(ratio, 0.8 * nominal) << c.name << ": errors " << coarse << ", " << fine;
    EXPECT_LT(ratio, 1.25 * nominal) << c.name << ": errors " << coarse << ", " << fine;
    EXPECT_GT(fine, kAboveRounding) << c.name << ": the case must stay above rounding";
  }
}

TEST(Ensemble, SymplecticEnergyErrorStaysBoundedWhileRk4Grows) {
  // Regular orbits at E = 1/12; the largest |ΔE/E| over 10⁵ and over 10⁶ steps.
  SmallEnsemble e;
  e.dt = 0.05;
  e.samples = 100;
  e.rows = test::henon_heiles_rows(1.0 / 12, 8);
  for (const char* name : {"leapfrog", "yoshida4"}) {
    e.integrator = name;
    e.steps = 100000;
    const double short_run = test::largest_drift(e);
    e.steps = 1000000;
    const double long_run = test::largest_drift(e);
    // Bounded: ten times longer, the largest error barely moves.
    EXPECT_LT(long_run, 2.0 * short_run) << name << ": " << short_run << " -> " << long_run;
    EXPECT_GT(short_run, 0) << name;
  }
  e.integrator = "rk4";
  e.steps = 100000;
  const double short_run = test::largest_drift(e);
  e.steps = 1000000;
  const double long_run = test::largest_drift(e);
  // RK4's error is dissipative: it grows linearly, ten times in ten times the time.
  EXPECT_GT(long_run / short_run, 6.0) << short_run << " -> " << long_run;
  EXPECT_LT(long_run / short_run, 15.0) << short_run << " -> " << long_run;
}

// Lorenz at ρ = 28 from (1, 0, 0) to t = 0.5; the reference by dop853 at a step 2⁻¹³.
std::array<double, 3> lorenz_at(const std::string& integrator, std::int64_t steps,
                                Precision p = Precision::fp64) {
  SmallEnsemble e;
  e.problem = "lorenz";
  e.integrator = integrator;
  e.precision = p;
  e.dt = 0.5 / static_cast<double>(steps);
  e.steps = steps;
  e.rows = {1.0, 0.0, 0.0, 10.0, 28.0, 8.0 / 3.0};
  const EnsembleOutcome out = e.run();
  return {out.final_state[0], out.final_state[1], out.final_state[2]};
}

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

TEST(Ensemble, FirstOrderMethodsConvergeAtTheirOrderOnLorenz) {
  const auto reference = lorenz_at("dop853", 4096);
  const struct {
    const char* name;
    int order;
    std::int64_t steps;
  } cases[] = {{"euler", 1, 20000}, {"midpoint", 2, 1000}, {"rk4", 4, 200}, {"dopri5", 5, 100},
               {"tsit5", 5, 100}};
  for (const auto& c : cases) {
    const double coarse = distance(lorenz_at(c.name, c.steps), reference);
    const double fine = distance(lorenz_at(c.name, 2 * c.steps), reference);
    const double ratio = coarse / fine, nominal = std::pow(2.0, c.order);
    EXPECT_GT(ratio, 0.8 * nominal) << c.name << ": errors " << coarse << ", " << fine;
    EXPECT_LT(ratio, 1.25 * nominal) << c.name << ": errors " << coarse << ", " << fine;
  }
}

TEST(Ensemble, LorenzBenchmarkInSinglePrecisionAgreesWithDouble) {
  // The GPU solvers' benchmark: ρ = linspace(0, 21, N), u0 = (1, 0, 0), t ∈ [0, 1], dt = 10⁻³,
  // fp32. Below ρ ≈ 24.74 every orbit settles on a fixed point, so rounding is not amplified:
  // fp32 stays within a few thousand ulps of the fp64 run of the same method, itself within
  // RK4's truncation error (~10⁻¹⁰ at this step) of the exact flow.
  constexpr double kSinglePrecisionDrift = 1e-4;  // relative to max(1, |u|)
  SmallEnsemble e = test::lorenz_benchmark(512);
  for (const char* name : {"rk4", "dopri5"}) {
    e.integrator = name;
    e.precision = Precision::fp64;
    const EnsembleOutcome exact = e.run();
    e.precision = Precision::fp32;
    const EnsembleOutcome single = e.run();
    double worst = 0;
    for (std::size_t i = 0; i < exact.final_state.size(); ++i)
      worst = std::max(worst, std::abs(single.final_state[i] - exact.final_state[i]) /
                                  std::max(1.0, std::abs(exact.final_state[i])));
    EXPECT_LT(worst, kSinglePrecisionDrift) << name;
    EXPECT_GT(worst, 0) << name << ": fp32 must differ from fp64 somewhere";
  }
}

TEST(Ensemble, EveryKernelAndThreadCountGivesTheSameBits) {
  SmallEnsemble e;
  e.steps = 3000;
  e.samples = 3;
  e.rows = test::henon_heiles_rows(0.125, 37);  // not a multiple of any vector width
  for (const char* name : {"leapfrog", "rk4", "ab4", "yoshida8"})
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      e.integrator = name;
      e.precision = p;
      const EnsembleOutcome one = e.run(Backend::cpu, supported_lanes_kernel_names().back(), 1);
      for (const std::string& kernel : supported_lanes_kernel_names()) {
        const EnsembleOutcome other = e.run(Backend::cpu, kernel, 2);
        EXPECT_EQ(other.final_state, one.final_state) << name << " " << kernel;
        EXPECT_EQ(other.drift.size(), one.drift.size());
        for (std::size_t i = 0; i < one.drift.size(); ++i)
          ASSERT_EQ(std::bit_cast<std::uint32_t>(other.drift[i]),
                    std::bit_cast<std::uint32_t>(one.drift[i]))
              << name << " " << kernel << " drift " << i;
      }
    }
}

TEST(Ensemble, MergedKicksAreTheSameMethod) {
  // A run of leapfrog merges the half kicks between steps; one step per sample does not. Same
  // method, other rounding: the two agree to rounding, not to the method's error.
  // 10³ steps, each rounding its updates differently by an ε of values of order 1: far below
  // 10⁻¹², while leapfrog's own error at dt = 0.01 is ~10⁻⁵.
  constexpr double kRoundingApart = 1e-12;
  SmallEnsemble e;
  e.rows = test::henon_heiles_rows(0.1, 4);
  e.steps = 1000;
  e.samples = 1;
  const EnsembleOutcome merged = e.run();
  e.samples = 1000;
  const EnsembleOutcome stepwise = e.run();
  for (std::size_t i = 0; i < merged.final_state.size(); ++i)
    EXPECT_NEAR(merged.final_state[i], stepwise.final_state[i], kRoundingApart);
}

TEST(Ensemble, RefusesWhatItCannotRun) {
  SmallEnsemble e;
  e.problem = "lorenz";
  e.integrator = "leapfrog";
  e.rows = {1, 0, 0, 10, 28, 8.0 / 3};
  EXPECT_THROW(e.run(), ParameterError);  // a splitting method needs H = T(p) + V(q)
  e.integrator = "rk4";
  e.samples = 2000;  // more samples than steps
  EXPECT_THROW(e.run(), ParameterError);
  e.samples = 1;
  e.precision = Precision::fp128;
  EXPECT_THROW(e.run(), ParameterError);
  e.precision = Precision::fp64;
  e.dt = std::nan("");
  EXPECT_THROW(e.run(), ParameterError);
}

}  // namespace
}  // namespace orrery
