// SPDX-License-Identifier: MIT
// Ensembles on the GPU against the CPU lanes: the same bits for every problem (each shape of a
// user's polynomial among them), integrator and precision (the final states and every energy-drift sample), on one device and on all. Skipped
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

}  // namespace
}  // namespace orrery
