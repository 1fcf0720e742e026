// SPDX-License-Identifier: MIT
// Ensembles on the GPU against the CPU lanes: the same bits for every problem (each shape of a
// user's polynomial and three-body among them), integrator and precision at a fixed step (the final states and
// every energy-drift sample), on one device and on all; with a tolerance, the same within it.
// Skipped where no GPU is present.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cuda_presence.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

class CudaEnsemble : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  }
};

void expect_same_bits(const EnsembleOutcome& gpu, const EnsembleOutcome& cpu,
                      const std::string& what) {
  ASSERT_EQ(gpu.info.backend, "cuda") << what;
  ASSERT_EQ(gpu.final_state.size(), cpu.final_state.size()) << what;
  for (std::size_t i = 0; i < cpu.final_state.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(gpu.final_state[i]),
              std::bit_cast<std::uint64_t>(cpu.final_state[i]))
        << what << " word " << i << ": " << gpu.final_state[i] << " vs " << cpu.final_state[i];
  ASSERT_EQ(gpu.drift.size(), cpu.drift.size()) << what;
  for (std::size_t i = 0; i < cpu.drift.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint32_t>(gpu.drift[i]), std::bit_cast<std::uint32_t>(cpu.drift[i]))
        << what << " drift " << i;
}

// Every compiled problem: the built-in ones, and each shape of `polynomial` through a potential
// it is the first to hold (1-D; 2-D even in x; 2-D dense; 3-D).
struct ProblemCase {
  const char* problem;
  const char* potential;
};
constexpr ProblemCase kProblemCases[] = {
    {"henon-heiles", ""},
    {"lorenz", ""},
    {"polynomial", test::kHenonHeilesPotential},
    {"polynomial", "0.5*x^2 - 0.25*x^4 + 0.1*x^6"},
    {"polynomial", "0.5*(x^2+y^2) + x*y^2 + 0.5*y^4"},  // 0.5 (x + y²)² + y²/2: bounded
    {"polynomial", "0.5*(x^2+y^2+z^2) + 0.3*x*y*z + 0.1*z^4"},
    {"three-body", ""},
};

TEST_F(CudaEnsemble, EveryProblemIntegratorAndPrecisionGivesTheCpuBits) {
  int seen = 0;
  for (const ProblemCase& c : kProblemCases) {
    SmallEnsemble probe;
    probe.problem = c.problem;
    probe.potential = c.potential;
    const auto& problem =
        ensemble_problems()[static_cast<std::size_t>(probe.setup().problem)];
    seen |= 1 << probe.setup().problem;
    for (const auto& integrator : ensemble_integrators()) {
      if (!problem.second_order && integrator.family != IntegratorFamily::explicit_runge_kutta)
        continue;
      for (Precision p : {Precision::fp64, Precision::fp32, Precision::mixed}) {
        SmallEnsemble e = probe;
        e.integrator = integrator.name;
        e.precision = p;
        e.steps = 2000;
        e.samples = 4;
        if (problem.name == "lorenz") {
          e.dt = 1e-3;
          for (int i = 0; i < 300; ++i) e.rows.insert(e.rows.end(), {1, 0, 0, 10, 0.07 * i, 8.0 / 3});
        } else if (problem.name == "three-body") {
          e.rows = test::three_body_rows(300);  // near the figure eight: ~3 periods
        } else {
          // Hénon–Heiles' starts, their words cut or padded to the problem's.
          const auto hh = test::henon_heiles_rows(0.125, 300);
          const int c2 = problem.coordinates;
          for (std::size_t r = 0; r < hh.size(); r += 4)
            for (int w = 0; w < 2 * c2; ++w) {
              const int part = w / c2, k = w % c2;  // q or p, coordinate k
              e.rows.push_back(k < 2 ? hh[r + 2 * part + k] : 0.1);
            }
        }
        const std::string what = std::string(problem.name) + " " + c.potential + " " +
                                 std::string(integrator.name) + " " + to_string(p);
        expect_same_bits(e.run(Backend::cuda), e.run(Backend::cpu), what);
      }
    }
  }
  EXPECT_EQ(seen, (1 << kEnsembleProblemCount) - 1) << "a compiled problem is not tested";
}

TEST_F(CudaEnsemble, SweepsComputedOnTheDeviceGiveTheCpuBits) {
  SmallEnsemble e = test::lorenz_benchmark(100003);
  e.precision = Precision::fp32;
  expect_same_bits(e.run(Backend::cuda), e.run(Backend::cpu), "lorenz sweep");
}

// With a tolerance the GPU runs the CPU's arithmetic except x^y in the step factor
// (core/lane_power.hpp: the GPU's special-function unit against the host's libm, a few float
// ulps apart), so step sizes differ slightly, and the trajectories by what the later steps make
// of it: a step or two per trajectory, a few more where fp32 meets close encounters of three
// bodies (at most kGpuAdaptiveStepsShare of them), and a different error of the same size. So the
// GPU's run is held to the CPU's accuracy: its largest error against a reference run (dop853,
// fp64, tolerance 10⁻¹³) within kSameAccuracy times the CPU's (plus the tolerance, should the
// CPU land on the reference). A wrong control or tolerance on the GPU moves every trajectory's
// count, and by far more.
constexpr double kSameAccuracy = 2;
constexpr std::int64_t kGpuAdaptiveStepsApart = 2;
constexpr double kGpuAdaptiveStepsShare = 0.05;

// Whether a trajectory's accepted steps on the GPU and the CPU are within rounding's reach.
bool steps_within_reach(std::int64_t gpu, std::int64_t cpu) {
  return std::abs(gpu - cpu) <= kGpuAdaptiveStepsApart;
}

// The largest gap between two runs' final states, relative to max(1, |y|).
double largest_gap(const EnsembleOutcome& a, const EnsembleOutcome& b) {
  double worst = 0;
  for (std::size_t i = 0; i < b.final_state.size(); ++i)
    worst = std::max(worst, std::abs(a.final_state[i] - b.final_state[i]) /
                                std::max(1.0, std::abs(b.final_state[i])));
  return worst;
}

void expect_within_tolerance(const SmallEnsemble& e, const std::string& what) {
  const EnsembleOutcome gpu = e.run(Backend::cuda), cpu = e.run(Backend::cpu);
  SmallEnsemble exact = e;
  exact.integrator = "dop853";
  exact.precision = Precision::fp64;
  exact.tolerance = 1e-13;
  const EnsembleOutcome reference = exact.run(Backend::cpu);
  ASSERT_EQ(gpu.info.backend, "cuda") << what;
  ASSERT_EQ(gpu.final_state.size(), cpu.final_state.size()) << what;
  ASSERT_EQ(gpu.status, cpu.status) << what;
  EXPECT_EQ(gpu.failed, 0) << what;
  std::size_t same_steps = 0, beyond_reach = 0;
  for (std::size_t i = 0; i < cpu.steps_accepted.size(); ++i) {
    if (!steps_within_reach(gpu.steps_accepted[i], cpu.steps_accepted[i])) {
      ++beyond_reach;
      std::printf("%s trajectory %zu: %lld steps on the GPU, %lld on the CPU\n", what.c_str(), i,
                  static_cast<long long>(gpu.steps_accepted[i]),
                  static_cast<long long>(cpu.steps_accepted[i]));
    }
    same_steps += gpu.steps_accepted[i] == cpu.steps_accepted[i] &&
                  gpu.steps_rejected[i] == cpu.steps_rejected[i];
  }
  std::size_t same_bits = 0;
  for (std::size_t i = 0; i < cpu.final_state.size(); ++i)
    same_bits += std::bit_cast<std::uint64_t>(gpu.final_state[i]) ==
                 std::bit_cast<std::uint64_t>(cpu.final_state[i]);
  EXPECT_LE(static_cast<double>(beyond_reach),
            kGpuAdaptiveStepsShare * static_cast<double>(cpu.steps_accepted.size()))
      << what << ": " << beyond_reach << " trajectories more than " << kGpuAdaptiveStepsApart
      << " steps apart";
  const double gpu_error = largest_gap(gpu, reference), cpu_error = largest_gap(cpu, reference);
  EXPECT_LE(gpu_error, kSameAccuracy * cpu_error + e.tolerance) << what;
  std::printf("%s: %zu of %zu words bitwise equal, %zu of %zu trajectories the same steps, "
              "largest gap %.2e; error against the reference GPU %.2e, CPU %.2e\n",
              what.c_str(), same_bits, cpu.final_state.size(), same_steps,
              cpu.steps_accepted.size(), largest_gap(gpu, cpu), gpu_error, cpu_error);
}

TEST_F(CudaEnsemble, AdaptiveRunsAgreeWithTheCpuWithinTheirTolerance) {
  for (const char* integrator : {"dopri5", "tsit5", "dop853"})
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      const double tolerance = p == Precision::fp32 ? 1e-4 : 1e-9;
      SmallEnsemble lorenz = test::lorenz_benchmark(10007);
      lorenz.integrator = integrator;
      lorenz.precision = p;
      lorenz.tolerance = tolerance;
      lorenz.samples = 3;
      const std::string what = std::string("lorenz ") + integrator + " " + to_string(p);
      expect_within_tolerance(lorenz, what);

      SmallEnsemble hh;
      hh.integrator = integrator;
      hh.precision = p;
      hh.tolerance = tolerance;
      hh.dt = 0.01;
      hh.steps = 1000;  // t_end = 10
      hh.samples = 5;
      hh.rows = test::henon_heiles_rows(0.1, 300);
      expect_within_tolerance(hh, std::string("henon-heiles ") + integrator + " " + to_string(p));

      SmallEnsemble three = hh;
      three.problem = "three-body";
      three.rows = test::three_body_rows(300);
      expect_within_tolerance(three, std::string("three-body ") + integrator + " " + to_string(p));
    }
}

// A run of more than a million trajectories, an uneven count: every result lands at its
// trajectory's place — the final states and drift samples, the crossings of a section, and with
// a tolerance each trajectory's steps and its state within the tolerance's reach.
TEST_F(CudaEnsemble, LargeRunsPutEveryResultInItsPlace) {
  constexpr int kTrajectories = (1 << 20) + 777;
  SmallEnsemble hh;
  hh.steps = 40;
  hh.samples = 3;
  hh.rows = test::henon_heiles_rows(0.125, kTrajectories);
  expect_same_bits(hh.run(Backend::cuda), hh.run(Backend::cpu), "henon-heiles, large");

  SmallEnsemble sweep = test::lorenz_benchmark(kTrajectories);
  sweep.steps = 40;
  sweep.precision = Precision::fp32;
  expect_same_bits(sweep.run(Backend::cuda), sweep.run(Backend::cpu), "lorenz sweep, large");

  SmallEnsemble sectioned = hh;
  sectioned.steps = 400;
  sectioned.section = EnsembleSection{1, 0.0, 1, 2};  // y = 0 upwards, two slots
  const EnsembleOutcome gs = sectioned.run(Backend::cuda), cs = sectioned.run(Backend::cpu);
  expect_same_bits(gs, cs, "henon-heiles sectioned, large");
  ASSERT_EQ(gs.section_count, cs.section_count);
  ASSERT_EQ(gs.section_points.size(), cs.section_points.size());
  for (std::size_t i = 0; i < cs.section_points.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(gs.section_points[i]),
              std::bit_cast<std::uint64_t>(cs.section_points[i]))
        << "section word " << i;

  SmallEnsemble controlled = hh;
  controlled.integrator = "dopri5";
  controlled.tolerance = 1e-7;
  controlled.steps = 100;  // to t = 1
  const EnsembleOutcome ga = controlled.run(Backend::cuda), ca = controlled.run(Backend::cpu);
  ASSERT_EQ(ga.steps_accepted.size(), ca.steps_accepted.size());
  for (std::size_t i = 0; i < ca.steps_accepted.size(); ++i) {
    ASSERT_TRUE(steps_within_reach(ga.steps_accepted[i], ca.steps_accepted[i]))
        << "trajectory " << i;
    ASSERT_EQ(ga.status[i], ca.status[i]) << "trajectory " << i;
  }
  // A trajectory's state where another's belongs differs by the orbit's size (~0.1); the GPU's
  // differs from the CPU's by the tolerance's reach.
  constexpr double kSameTrajectory = 1e-4;
  for (std::size_t i = 0; i < ca.final_state.size(); ++i)
    ASSERT_NEAR(ga.final_state[i], ca.final_state[i], kSameTrajectory) << "word " << i;
}

}  // namespace
}  // namespace orrery
