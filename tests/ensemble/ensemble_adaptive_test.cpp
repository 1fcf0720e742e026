// SPDX-License-Identifier: MIT
// Ensembles with a per-trajectory step-size control (ensemble/adaptive_trajectory.hpp) on the CPU
// lanes: the error at t_end follows the tolerance down; the Lorenz benchmark's sweep agrees with a
// tight fp64 reference at the tolerance's scale; every trajectory lands on each sample time
// exactly; the lanes give the bits of a scalar run of the same agent on every kernel and thread
// count; a trajectory that blows up is flagged, not waited for; bad tolerances are refused.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

// Lorenz at ρ = 28 from (1, 0, 0) to t = 0.5 (before the orbit's chaos amplifies much), with a
// tolerance; the reference by dop853 at a fixed step of 2⁻¹³ (its error ~10⁻¹⁴, far below every
// tolerance here).
SmallEnsemble lorenz_to_half(const std::string& integrator, double tolerance) {
  SmallEnsemble e;
  e.problem = "lorenz";
  e.integrator = integrator;
  e.tolerance = tolerance;
  e.dt = 1e-3;  // the first trial step
  e.steps = 500;  // t_end = 0.5
  e.rows = {1.0, 0.0, 0.0, 10.0, 28.0, 8.0 / 3.0};
  return e;
}

std::array<double, 3> lorenz_reference() {
  SmallEnsemble e = lorenz_to_half("dop853", 0);
  e.dt = 0.5 / 4096;
  e.steps = 4096;
  const EnsembleOutcome out = e.run();
  return {out.final_state[0], out.final_state[1], out.final_state[2]};
}

double distance(const EnsembleOutcome& out, const std::array<double, 3>& ref) {
  return std::hypot(out.final_state[0] - ref[0], out.final_state[1] - ref[1],
                    out.final_state[2] - ref[2]);
}

// Each hundredfold tighter tolerance must cut the error at t_end by at least this: the control
// keeps the error per step near the tolerance, so the global error falls as tol^(p/(q+1)) or
// faster (~40× per hundredfold for a 5(4) pair).
constexpr double kLeastGainPerHundredfold = 20;
// The error at t_end against the tolerance: the local errors of ~10²–10³ steps, amplified by the
// flow's divergence over t = 0.5 (|y| ~ 20: the tolerance is relative to 1 + |y|).
constexpr double kMostErrorPerTolerance = 1e3;

TEST(EnsembleAdaptive, ErrorAtTheEndFollowsTheTolerance) {
  const auto reference = lorenz_reference();
  for (const char* name : {"dopri5", "tsit5", "dop853"}) {
    double previous = 0;
    for (double tolerance : {1e-6, 1e-8, 1e-10}) {
      const EnsembleOutcome out = lorenz_to_half(name, tolerance).run();
      ASSERT_EQ(out.status.size(), 1u);
      EXPECT_EQ(out.status[0], 0) << name;
      const double error = distance(out, reference);
      std::printf("%-7s tol %.0e: error %.2e, %u steps (%u rejected)\n", name, tolerance, error,
                  out.steps_accepted[0], out.steps_rejected[0]);
      if (previous > 0) {
        EXPECT_LT(error, previous / kLeastGainPerHundredfold) << name << " " << tolerance;
      }
      EXPECT_LT(error, kMostErrorPerTolerance * tolerance) << name << " " << tolerance;
      previous = error;
    }
  }
}

TEST(EnsembleAdaptive, LorenzSweepAgreesWithATightDoubleReference) {
  // The GPU ensemble solvers' adaptive benchmark (ρ = linspace(0, 21, N), u0 = (1, 0, 0),
  // t ∈ [0, 1], tsit5) against dop853 at 10⁻¹³ in fp64. Below ρ ≈ 24.74 every orbit settles
  // toward a fixed point, so the errors stay at the tolerance's scale: within
  // kSweepErrorPerTolerance · tol relative to max(1, |u|) — in fp32 too, at its own smallest
  // tolerance, where rounding adds a few hundred ulps over the run.
  constexpr double kSweepErrorPerTolerance = 100;
  SmallEnsemble reference = test::lorenz_benchmark(257);
  reference.integrator = "dop853";
  reference.tolerance = 1e-13;
  const EnsembleOutcome exact = reference.run();
  ASSERT_EQ(exact.failed, 0);
  const struct {
    Precision precision;
    double tolerance;
  } cases[] = {{Precision::fp64, 1e-6}, {Precision::fp64, 1e-9}, {Precision::fp32, 2e-5}};
  for (const auto& c : cases) {
    SmallEnsemble e = test::lorenz_benchmark(257);
    e.integrator = "tsit5";
    e.precision = c.precision;
    e.tolerance = c.tolerance;
    const EnsembleOutcome out = e.run();
    EXPECT_EQ(out.failed, 0);
    double worst = 0;
    for (std::size_t i = 0; i < exact.final_state.size(); ++i)
      worst = std::max(worst, std::abs(out.final_state[i] - exact.final_state[i]) /
                                  std::max(1.0, std::abs(exact.final_state[i])));
    std::printf("tsit5 %s tol %.0e: largest relative error %.2e\n", to_string(c.precision).c_str(),
                c.tolerance, worst);
    EXPECT_LT(worst, kSweepErrorPerTolerance * c.tolerance) << to_string(c.precision);
    EXPECT_GT(worst, 0);
  }
}

TEST(EnsembleAdaptive, EveryTrajectoryLandsOnEachSampleTimeExactly) {
  // A scalar run of the agent itself, recording where it lands.
  using System = EnsembleSystem<HenonHeilesProblem, double>;
  for (const double t_end : {3.3, 10.0, 0.7}) {
    const int samples = 7;
    System::State st{{0.0, -0.25}, {0.42081, 0.0}};
    const auto field = HenonHeilesProblem::field<double>({}, System::Parameters{});
    std::vector<int> ks;
    std::vector<double> ts;
    const auto tally = integrate_adaptive_trajectory<HenonHeilesProblem, DormandPrince5, double>(
        st, field, 0.01, t_end, samples, 1e-9, [&](bool landed, double k, double t, const auto&) {
          EXPECT_TRUE(landed);
          ks.push_back(static_cast<int>(k));
          ts.push_back(t);
        });
    EXPECT_EQ(tally.status, 0);
    EXPECT_EQ(tally.next_sample, samples + 1);
    ASSERT_EQ(ks.size(), static_cast<std::size_t>(samples));
    for (int k = 1; k <= samples; ++k) {
      EXPECT_EQ(ks[k - 1], k);
      EXPECT_EQ(ts[k - 1], adaptive_sample_time(t_end, double(k), double(samples))) << k;
    }
    EXPECT_EQ(ts.back(), t_end);
    // More steps than samples: the samples shortened steps, they did not replace them.
    EXPECT_GT(tally.accepted, samples);
  }
  // The job records the same times.
  SmallEnsemble e;
  e.integrator = "dopri5";
  e.tolerance = 1e-8;
  e.steps = 100;
  e.samples = 3;
  EnsembleSetup s = e.setup();
  s.t_end = 1.0;
  const std::vector<double> times = ensemble_sample_times(s);
  ASSERT_EQ(times.size(), 3u);
  EXPECT_EQ(times[0], 1.0 / 3.0);
  EXPECT_EQ(times[2], 1.0);
}

TEST(EnsembleAdaptive, LanesGiveTheBitsOfAScalarRunOnEveryKernelAndThreadCount) {
  SmallEnsemble e = test::lorenz_benchmark(37);  // not a multiple of any vector width
  e.integrator = "tsit5";
  for (Precision p : {Precision::fp64, Precision::fp32}) {
    e.precision = p;
    e.tolerance = smallest_ensemble_tolerance(p) * 10;
    const EnsembleOutcome one = e.run(Backend::cpu, supported_lanes_kernel_names().back(), 1);
    // The scalar agent, trajectory by trajectory.
    const EnsembleSetup s = e.setup();
    for (std::int64_t i = 0; i < s.trajectories; ++i) {
      double row[6];
      start_row(s.starts, 6, i, s.trajectories, row);
      const auto scalar = [&]<class T>(T) {
        using System = EnsembleSystem<LorenzProblem, T>;
        typename System::State st{{T(row[0]), T(row[1]), T(row[2])}};
        typename System::Parameters k{{T(row[3]), T(row[4]), T(row[5])}};
        const auto tally = integrate_adaptive_trajectory<LorenzProblem, Tsitouras5, T>(
            st, LorenzProblem::field<T>({}, k), T(s.dt), T(ensemble_end_time(s)), s.samples,
            T(s.tolerance), [](bool, T, T, const auto&) {});
        for (int w = 0; w < 3; ++w)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(static_cast<double>(st.y[w])),
                    std::bit_cast<std::uint64_t>(one.final_state[i * 3 + w]))
              << to_string(p) << " trajectory " << i;
        EXPECT_EQ(static_cast<std::uint32_t>(tally.accepted), one.steps_accepted[i]);
        EXPECT_EQ(static_cast<std::uint32_t>(tally.rejected), one.steps_rejected[i]);
      };
      if (p == Precision::fp32)
        scalar(0.0f);
      else
        scalar(0.0);
    }
    for (const std::string& kernel : supported_lanes_kernel_names()) {
      const EnsembleOutcome other = e.run(Backend::cpu, kernel, 2);
      EXPECT_EQ(other.final_state, one.final_state) << kernel;
      EXPECT_EQ(other.steps_accepted, one.steps_accepted) << kernel;
      EXPECT_EQ(other.steps_rejected, one.steps_rejected) << kernel;
    }
  }
}

TEST(EnsembleAdaptive, ATrajectoryThatBlowsUpIsFlaggedAndTheOthersFinish) {
  // Hénon–Heiles above the escape energy 1/6 along +y: y'' = −y + y² reaches infinity in finite
  // time, where the steps shrink without end. Beside it, a bounded orbit.
  SmallEnsemble e;
  e.integrator = "dopri5";
  e.tolerance = 1e-8;
  e.dt = 0.01;
  e.steps = 2000;  // t_end = 20
  e.samples = 4;
  e.rows = {0.0, 0.0, 0.0, 2.0, 0.0, -0.25, 0.42081, 0.0};
  const EnsembleOutcome out = e.run();
  ASSERT_EQ(out.status.size(), 2u);
  EXPECT_NE(out.status[0], 0);
  EXPECT_EQ(out.status[1], 0);
  EXPECT_EQ(out.failed, 1);
  // Its samples after the failure are NaN; the bounded orbit's are finite.
  EXPECT_TRUE(std::isnan(out.drift[3 * 2 + 0]));
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(out.drift[k * 2 + 1])) << k;
}

TEST(EnsembleAdaptive, RefusesToleranceItCannotHonour) {
  SmallEnsemble e = lorenz_to_half("rk4", 1e-8);
  try {  // a method without an error estimate
    e.run();
    FAIL() << "no error";
  } catch (const ParameterError& err) {
    EXPECT_EQ(err.parameter(), "tolerance");
    EXPECT_NE(err.accepted().find("dopri5, tsit5, dop853"), std::string::npos) << err.what();
  }
  e.integrator = "tsit5";
  e.precision = Precision::fp32;
  try {  // below fp32's rounding: the published benchmark's 1e-8
    e.run();
    FAIL() << "no error";
  } catch (const ParameterError& err) {
    EXPECT_EQ(err.parameter(), "tolerance");
    EXPECT_NE(err.accepted().find("1.19e-05"), std::string::npos) << err.what();
  }
  e.tolerance = 1.2e-5;
  EXPECT_NO_THROW(e.run());
  e.precision = Precision::fp64;
  for (double bad : {-1e-8, std::nan(""), double(INFINITY), 1e-15}) {
    e.tolerance = bad;
    EXPECT_THROW(e.run(), ParameterError) << bad;
  }
  e.tolerance = 1e-8;
  e.dt = -1e-3;  // the first step goes forward
  EXPECT_THROW(e.run(), ParameterError);
}

}  // namespace
}  // namespace orrery
