// SPDX-License-Identifier: MIT
// Ensembles on the GPU against the CPU lanes: the same bits for every problem, integrator and
// precision (the final states and every energy-drift sample), on one device and on all. Skipped
// where no GPU is present.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "ensemble_setups.hpp"
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

TEST_F(CudaEnsemble, EveryProblemIntegratorAndPrecisionGivesTheCpuBits) {
  for (const auto& problem : ensemble_problems())
    for (const auto& integrator : ensemble_integrators()) {
      if (!problem.second_order && integrator.family != IntegratorFamily::explicit_runge_kutta)
        continue;
      for (Precision p : {Precision::fp64, Precision::fp32}) {
        SmallEnsemble e;
        e.problem = problem.name;
        e.integrator = integrator.name;
        e.precision = p;
        e.steps = 2000;
        e.samples = 4;
        if (problem.name == "lorenz") {
          e.dt = 1e-3;
          for (int i = 0; i < 300; ++i) e.rows.insert(e.rows.end(), {1, 0, 0, 10, 0.07 * i, 8.0 / 3});
        } else {
          e.rows = test::henon_heiles_rows(0.125, 300);
        }
        const std::string what = std::string(problem.name) + " " + std::string(integrator.name) +
                                 " " + to_string(p);
        expect_same_bits(e.run(Backend::cuda), e.run(Backend::cpu), what);
      }
    }
}

TEST_F(CudaEnsemble, SweepsComputedOnTheDeviceGiveTheCpuBits) {
  SmallEnsemble e = test::lorenz_benchmark(100003);
  e.precision = Precision::fp32;
  expect_same_bits(e.run(Backend::cuda), e.run(Backend::cpu), "lorenz sweep");
}

}  // namespace
}  // namespace orrery
