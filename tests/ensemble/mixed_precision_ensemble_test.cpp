// SPDX-License-Identifier: MIT
// The precision `mixed` of ensembles (the state and its sums in fp64, the field evaluated in fp32
// and widened): its field is the fp32 field of the rounded state, bit for bit, for every problem;
// and on Hénon–Heiles its energy error lies between fp64's and fp32's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ensemble_setups.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

TEST(EnsembleMixedPrecision, FieldIsTheFloatFieldOfTheRoundedStateWidened) {
  const double q[2] = {0.1234567890123, -0.3141592653589};
  const ParameterPack<double, 0> k{};
  double wide[2];
  ensemble_field<HenonHeilesProblem, double, true>({}, k)(q, wide);
  const float qn[2] = {static_cast<float>(q[0]), static_cast<float>(q[1])};
  float narrow[2];
  HenonHeilesProblem::field<float>({}, ParameterPack<float, 0>{})(qn, narrow);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(wide[i], static_cast<double>(narrow[i])) << i;

  // Lorenz: the parameters are rounded to fp32 too.
  const double u[3] = {1.1, -2.3, 20.7};
  const ParameterPack<double, 3> lk{{10.0, 28.1, 8.0 / 3.0}};
  double du[3];
  ensemble_field<LorenzProblem, double, true>({}, lk)(u, du);
  const float un[3] = {1.1f, -2.3f, 20.7f};
  const ParameterPack<float, 3> lkn{{10.0f, 28.1f, static_cast<float>(8.0 / 3.0)}};
  float dun[3];
  LorenzProblem::field<float>({}, lkn)(un, dun);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(du[i], static_cast<double>(dun[i])) << i;
}

double median_final_drift(const EnsembleOutcome& out) {
  std::vector<double> last;
  const std::size_t n = static_cast<std::size_t>(out.trajectories);
  for (std::size_t i = out.drift.size() - n; i < out.drift.size(); ++i)
    last.push_back(std::abs(out.drift[i]));
  std::nth_element(last.begin(), last.begin() + last.size() / 2, last.end());
  return last[last.size() / 2];
}

// dop853 at dt = 0.01 leaves a truncation error (~dt⁸) far below every rounding: what remains is
// fp64's rounding (~1e-16 a step), mixed's fp32 field (~6e-8·dt a step) and fp32's rounded
// state (~6e-8 a step), in that order; a factor of 10 between neighbours is far inside the gaps.
constexpr double kPrecisionGap = 10;

TEST(EnsembleMixedPrecision, EnergyErrorLiesBetweenFp64AndFp32OnHenonHeiles) {
  double drift[3];
  const Precision order[3] = {Precision::fp64, Precision::mixed, Precision::fp32};
  for (int i = 0; i < 3; ++i) {
    SmallEnsemble e;
    e.integrator = "dop853";
    e.precision = order[i];
    e.steps = 20000;
    e.samples = 4;
    e.rows = test::henon_heiles_rows(0.125, 64);
    drift[i] = median_final_drift(e.run());
  }
  EXPECT_GT(drift[1], kPrecisionGap * drift[0]) << "mixed " << drift[1] << " fp64 " << drift[0];
  EXPECT_GT(drift[2], kPrecisionGap * drift[1]) << "fp32 " << drift[2] << " mixed " << drift[1];
}

TEST(EnsembleMixedPrecision, EveryProblemRunsMixedOnEveryKernel) {
  SmallEnsemble e;
  e.precision = Precision::mixed;
  e.integrator = "rk4";
  e.rows = test::henon_heiles_rows(0.125, 13);
  const EnsembleOutcome a = e.run(Backend::cpu);
  for (const std::string& kernel : supported_lanes_kernel_names()) {
    const EnsembleOutcome b = e.run(Backend::cpu, kernel);
    EXPECT_EQ(a.final_state, b.final_state) << kernel;
  }
  SmallEnsemble l = test::lorenz_benchmark(37);
  l.precision = Precision::mixed;
  const EnsembleOutcome lo = l.run();
  for (double v : lo.final_state) EXPECT_TRUE(std::isfinite(v));
  SmallEnsemble p = e;
  p.potential = "0.5*(x^2+y^2+z^2) + 0.3*x*y*z";
  p.rows = {0.1, 0.2, 0.3, 0.0, 0.1, 0.0};
  EXPECT_EQ(p.run().state_words, 6);
}

}  // namespace
}  // namespace orrery
