// SPDX-License-Identifier: MIT
// The CUDA chaos kernel (src/ensemble/cuda/chaos_kernel.cuh) against the CPU chaos lanes: the same
// ORRERY_HD agent in fp64 with correctly rounded operations only, so every indicator value and
// every final state has the CPU's bits — for each problem (Hénon–Heiles from rows, Lorenz from a
// swept parameter, the user's polynomial with its data, three bodies), indicator kernel and
// chaos integrator, on trajectory counts that fill no warp exactly. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ensemble/ensemble_setups.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/jobs/chaos_job.hpp"

namespace orrery {
namespace {

class ChaosCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why;
  }
};

ChaosOutcome run_on(const ChaosSetup& s, Backend backend) {
  EnsembleRunOptions o;
  o.backend = backend;
  return run_chaos(s, o);
}

// The same bits, or both NaN: a NaN that arithmetic makes (an escaped orbit's final state, run on
// to overflow) has the sign and payload of the hardware's default NaN, which IEEE 754 leaves
// open and x86 and the GPU choose differently.
bool same_bits_or_both_nan(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) ||
         (std::isnan(a) && std::isnan(b));
}

// Every value and final-state word of the two runs bitwise equal (the GPU with the exact pair
// factor: ChaosSetup::exact_gpu), NaN as NaN.
void expect_same_bits(ChaosSetup s, const std::string& what) {
  s.exact_gpu = true;
  const ChaosOutcome gpu = run_on(s, Backend::cuda), cpu = run_on(s, Backend::cpu);
  ASSERT_EQ(gpu.info.backend, "cuda") << what;
  ASSERT_EQ(gpu.values.size(), cpu.values.size()) << what;
  ASSERT_GT(cpu.values.size(), 0u) << what;
  for (std::size_t i = 0; i < cpu.values.size(); ++i)
    ASSERT_TRUE(same_bits_or_both_nan(gpu.values[i], cpu.values[i]))
        << what << ": value " << i << " GPU " << gpu.values[i] << " CPU " << cpu.values[i];
  ASSERT_EQ(gpu.ensemble.final_state.size(), cpu.ensemble.final_state.size()) << what;
  for (std::size_t i = 0; i < cpu.ensemble.final_state.size(); ++i)
    ASSERT_TRUE(same_bits_or_both_nan(gpu.ensemble.final_state[i], cpu.ensemble.final_state[i]))
        << what << ": final word " << i << " GPU " << gpu.ensemble.final_state[i] << " CPU "
        << cpu.ensemble.final_state[i];
}

ChaosSetup chaos_of(const test::SmallEnsemble& e, ChaosKernel kernel) {
  ChaosSetup s;
  s.ensemble = e.setup();
  s.kernel = kernel;
  s.every = 10;
  s.samples = 3;
  return s;
}

constexpr ChaosKernel kKernels[] = {ChaosKernel::growth, ChaosKernel::sali,
                                    ChaosKernel::spectrum};
const char* const kIntegrators[] = {"leapfrog", "yoshida4", "yoshida6", "rk4", "dop853"};

TEST_F(ChaosCuda, EveryIndicatorAndIntegratorGivesTheCpuBits) {
  test::SmallEnsemble hh;
  hh.rows = test::henon_heiles_rows(0.125, 301);
  hh.steps = 2000;
  test::SmallEnsemble poly = hh;
  poly.potential = test::kHenonHeilesPotential;
  for (const char* integrator : kIntegrators)
    for (ChaosKernel kernel : kKernels) {
      const std::string what = std::string(integrator) + " kernel " +
                               std::to_string(static_cast<int>(kernel));
      hh.integrator = poly.integrator = integrator;
      expect_same_bits(chaos_of(hh, kernel), "henon-heiles " + what);
      expect_same_bits(chaos_of(poly, kernel), "polynomial " + what);
    }
}

TEST_F(ChaosCuda, SweptAndThreeBodyRunsGiveTheCpuBits) {
  test::SmallEnsemble lorenz = test::lorenz_benchmark(1001);
  lorenz.steps = 2000;
  for (const char* integrator : {"rk4", "dop853"})
    for (ChaosKernel kernel : kKernels) {
      lorenz.integrator = integrator;
      expect_same_bits(chaos_of(lorenz, kernel),
                       std::string("lorenz ") + integrator + " kernel " +
                           std::to_string(static_cast<int>(kernel)));
    }
  test::SmallEnsemble three;
  three.problem = "three-body";
  three.rows = test::three_body_rows(37);
  three.dt = 1e-3;
  three.steps = 2000;
  for (const char* integrator : {"leapfrog", "rk4"})
    for (ChaosKernel kernel : {ChaosKernel::growth, ChaosKernel::sali}) {
      three.integrator = integrator;
      expect_same_bits(chaos_of(three, kernel),
                       std::string("three-body ") + integrator + " kernel " +
                           std::to_string(static_cast<int>(kernel)));
    }
}

// The GPU's fast 1/r³ (its default for three bodies) differs from the exact one by about an ulp
// a pair (physics/inverse_cube.hpp), and its derivative by as little: over 2 000 steps of these
// bounded orbits the values and states stay within kFastFactorTolerance of the CPU's, relative,
// while at least one bit differs (the fast kernel ran, not the exact one).
constexpr double kFastFactorTolerance = 1e-9;

TEST_F(ChaosCuda, ThreeBodiesWithTheFastPairFactorStayCloseToTheCpu) {
  test::SmallEnsemble three;
  three.problem = "three-body";
  three.rows = test::three_body_rows(37);
  three.dt = 1e-3;
  three.steps = 2000;
  for (const char* integrator : {"leapfrog", "yoshida4", "rk4"})
    for (ChaosKernel kernel : {ChaosKernel::growth, ChaosKernel::sali}) {  // 18 words: no spectrum
      three.integrator = integrator;
      const std::string what = std::string(integrator) + " kernel " +
                               std::to_string(static_cast<int>(kernel));
      const ChaosSetup s = chaos_of(three, kernel);
      ASSERT_FALSE(s.exact_gpu);
      const ChaosOutcome gpu = run_on(s, Backend::cuda), cpu = run_on(s, Backend::cpu);
      ASSERT_EQ(gpu.values.size(), cpu.values.size()) << what;
      bool differs = false;
      const auto close = [&](double g, double c, const char* which, std::size_t i) {
        if (std::isnan(c)) {  // the growth kernel's escape outputs where there are no exits
          ASSERT_TRUE(std::isnan(g)) << what << ": " << which << " " << i << " GPU " << g;
          return;
        }
        differs |= g != c;
        ASSERT_LE(std::abs(g - c), kFastFactorTolerance * std::max(1.0, std::abs(c)))
            << what << ": " << which << " " << i << " GPU " << g << " CPU " << c;
      };
      for (std::size_t i = 0; i < cpu.values.size(); ++i)
        close(gpu.values[i], cpu.values[i], "value", i);
      for (std::size_t i = 0; i < cpu.ensemble.final_state.size(); ++i)
        close(gpu.ensemble.final_state[i], cpu.ensemble.final_state[i], "final word", i);
      EXPECT_TRUE(differs) << what << ": the fast kernel gave the exact kernel's bits";
    }
}

// GALI (the spectrum's kernel with its vectors kept apart) and escape (the growth kernel watching
// Hénon–Heiles' exits, above the saddles at E = 0.25 where most starts leave by t = 50): options
// the kernel takes at run time (ChaosKernelArgs::options), the CPU's bits all the same.
TEST_F(ChaosCuda, GaliAndEscapeGiveTheCpuBits) {
  test::SmallEnsemble hh;
  hh.rows = test::henon_heiles_rows(0.125, 301);
  hh.steps = 2000;
  test::SmallEnsemble open = hh;
  open.rows = test::henon_heiles_rows(0.25, 301);
  open.steps = 5000;
  for (const char* integrator : kIntegrators) {
    hh.integrator = open.integrator = integrator;
    expect_same_bits(chaos_of(hh, ChaosKernel::gali), std::string("gali ") + integrator);
    ChaosSetup escape = chaos_of(open, ChaosKernel::growth);
    escape.exits = chaos_exits_of(0);
    expect_same_bits(escape, std::string("escape ") + integrator);
  }
}

}  // namespace
}  // namespace orrery
