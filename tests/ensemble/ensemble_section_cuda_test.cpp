// SPDX-License-Identifier: MIT
// Surfaces of section on the GPU against the CPU lanes: at a fixed step the same crossings, bit
// for bit (count, state and time of every slot, and the final states), for every problem (each
// shape of a user's polynomial among them), integrator and precision; with a tolerance the same
// counts and crossings within the tolerance's reach (the step control's x^y rounds differently
// on the device: ensemble_cuda_test.cpp). Skipped where no GPU is present.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cuda_presence.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

class CudaEnsembleSection : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  }
};

struct ProblemCase {
  const char* problem;
  const char* potential;
  EnsembleSection section;
};
constexpr ProblemCase kProblemCases[] = {
    {"henon-heiles", "", {0, 0.0, +1, 32}},
    {"lorenz", "", {2, 27.0, 0, 32}},
    {"polynomial", test::kHenonHeilesPotential, {0, 0.0, +1, 32}},
    {"polynomial", "0.5*x^2 - 0.25*x^4 + 0.1*x^6", {0, 0.1, -1, 32}},
    {"polynomial", "0.5*(x^2+y^2) + x*y^2 + 0.5*y^4", {1, 0.0, 0, 32}},
    {"polynomial", "0.5*(x^2+y^2+z^2) + 0.3*x*y*z + 0.1*z^4", {0, 0.0, +1, 32}},
    {"three-body", "", {1, 0.0, 0, 32}},  // y1 = 0: the figure eight's centre and tips
};

SmallEnsemble case_ensemble(const ProblemCase& c, const EnsembleProblemInfo& problem) {
  SmallEnsemble e;
  e.problem = c.problem;
  e.potential = c.potential;
  e.section = c.section;
  e.steps = 3000;
  e.samples = 3;
  if (problem.name == "lorenz") {
    e.dt = 2e-3;
    for (int i = 0; i < 300; ++i) e.rows.insert(e.rows.end(), {1, 0, 0, 10, 20 + 0.03 * i, 8.0 / 3});
  } else if (problem.name == "three-body") {
    e.rows = test::three_body_rows(300);  // near the figure eight: ~4.7 periods
  } else {
    const auto hh = test::henon_heiles_rows(0.125, 300);
    const int c2 = problem.coordinates;
    for (std::size_t r = 0; r < hh.size(); r += 4)
      for (int w = 0; w < 2 * c2; ++w) {
        const int part = w / c2, k = w % c2;
        e.rows.push_back(k < 2 ? hh[r + 2 * part + k] : 0.1);
      }
  }
  return e;
}

void expect_same_crossings(const EnsembleOutcome& gpu, const EnsembleOutcome& cpu,
                           const std::string& what) {
  ASSERT_EQ(gpu.info.backend, "cuda") << what;
  ASSERT_EQ(gpu.section_count, cpu.section_count) << what;
  std::int64_t crossings = 0;
  for (const std::int64_t c : cpu.section_count) crossings += c;
  EXPECT_GT(crossings, 0) << what << ": nothing crossed";
  ASSERT_EQ(gpu.section_points.size(), cpu.section_points.size()) << what;
  for (std::size_t i = 0; i < cpu.section_points.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(gpu.section_points[i]),
              std::bit_cast<std::uint64_t>(cpu.section_points[i]))
        << what << " slot word " << i << ": " << gpu.section_points[i] << " vs "
        << cpu.section_points[i];
  for (std::size_t i = 0; i < cpu.final_state.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(gpu.final_state[i]),
              std::bit_cast<std::uint64_t>(cpu.final_state[i]))
        << what << " final word " << i;
}

TEST_F(CudaEnsembleSection, EveryProblemIntegratorAndPrecisionGivesTheCpuCrossings) {
  for (const ProblemCase& c : kProblemCases) {
    SmallEnsemble probe;
    probe.problem = c.problem;
    probe.potential = c.potential;
    const auto& problem = ensemble_problems()[static_cast<std::size_t>(probe.setup().problem)];
    for (const auto& integrator : ensemble_integrators()) {
      if (!problem.second_order && integrator.family != IntegratorFamily::explicit_runge_kutta)
        continue;
      for (Precision p : {Precision::fp64, Precision::fp32, Precision::mixed}) {
        SmallEnsemble e = case_ensemble(c, problem);
        e.integrator = integrator.name;
        e.precision = p;
        const std::string what = std::string(problem.name) + " " + c.potential + " " +
                                 std::string(integrator.name) + " " + to_string(p);
        expect_same_crossings(e.run(Backend::cuda), e.run(Backend::cpu), what);
      }
    }
  }
}

// With a tolerance: x^y rounds differently on the device now and then, so a trajectory's steps
// may part from the CPU's by an ulp of a step size; its crossings are then the same to about the
// tolerance's reach over the run (10⁻⁹ per step, 10³ steps, a chaotic growth of ~10 at E = 1/8).
constexpr double kControlledApart = 1e-5;

TEST_F(CudaEnsembleSection, ControlledStepsGiveTheCpuCrossingsWithinTheirReach) {
  SmallEnsemble e = case_ensemble(kProblemCases[0], ensemble_problems()[0]);
  e.integrator = "dopri5";
  e.tolerance = 1e-9;
  const EnsembleOutcome gpu = e.run(Backend::cuda), cpu = e.run(Backend::cpu);
  ASSERT_EQ(gpu.info.backend, "cuda");
  std::size_t same = 0, compared = 0;
  const int K = e.section.capacity;
  for (std::size_t i = 0; i < cpu.section_count.size(); ++i) {
    if (gpu.section_count[i] != cpu.section_count[i]) continue;
    ++same;
    for (std::int64_t k = 0; k < std::min<std::int64_t>(cpu.section_count[i], K) * 5; ++k) {
      const std::size_t at = i * static_cast<std::size_t>(K) * 5 + static_cast<std::size_t>(k);
      EXPECT_NEAR(gpu.section_points[at], cpu.section_points[at], kControlledApart) << i;
      ++compared;
    }
  }
  EXPECT_GE(same, cpu.section_count.size() * 95 / 100) << "nearly every count the same";
  EXPECT_GT(compared, 0u) << "no crossing compared";
}

}  // namespace
}  // namespace orrery
