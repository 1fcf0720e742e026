// SPDX-License-Identifier: MIT
// The CPU chaos lanes (src/ensemble/cpu/chaos_lanes.cpp) against the scalar agent they share
// with the CUDA kernel: the same bits for every trajectory, a partial last vector included, on
// one thread or two; and the Lorenz spectrum against its published value and the trace of the
// flow's Jacobian.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/chaos/chaos_trajectory.hpp"

namespace orrery {
namespace {

constexpr int kHenonHeiles = 0;  // index in EnsembleProblems

// Hénon–Heiles starts on the section x = 0 at E = 1/8: n of them across y, py = 0.
std::vector<double> section_rows(int n) {
  std::vector<double> rows;
  for (int i = 0; i < n; ++i) {
    const double y = -0.3 + 0.7 * i / n, v = y * y / 2 - y * y * y / 3;
    rows.insert(rows.end(), {0.0, y, std::sqrt(2 * (0.125 - v)), 0.0});
  }
  return rows;
}

ChaosSetup henon_heiles_setup(const std::vector<double>& rows, ChaosKernel kernel) {
  ChaosSetup s;
  s.ensemble.problem = kHenonHeiles;
  s.ensemble.integrator = ensemble_integrator_index("yoshida4");
  s.ensemble.dt = 0.01;
  s.ensemble.steps = 20000;
  s.ensemble.trajectories = static_cast<std::int64_t>(rows.size() / 4);
  s.ensemble.starts.rows = rows.data();
  s.kernel = kernel;
  s.every = 10;
  s.samples = 4;
  return s;
}

// The scalar agent's values for one start, as the lanes lay them out (sample, output).
template <class Indicator>
std::vector<double> scalar_values(const ChaosSetup& s, const double* row) {
  using TS = TangentSystem<HenonHeilesProblem, double, Indicator::vectors>;
  typename TS::State st;
  for (int w = 0; w < 4; ++w) TS::Base::word(st, w) = Dual<double, Indicator::vectors>(row[w]);
  const double none[1] = {};
  Indicator indicator;
  std::vector<double> out;
  chaos_trajectory<HenonHeilesProblem, Yoshida4>(
      st, TS::field({}, none), s.ensemble.dt, s.ensemble.steps, s.every, s.samples, indicator,
      [&](int, const double (&v)[Indicator::outputs]) { out.insert(out.end(), v, v + Indicator::outputs); });
  return out;
}

template <class Indicator>
void expect_lanes_match_scalar(ChaosKernel kernel) {
  const auto rows = section_rows(11);  // not a multiple of any vector width
  const ChaosSetup s = henon_heiles_setup(rows, kernel);
  for (int threads : {1, 2}) {
    EnsembleRunOptions options;
    options.backend = Backend::cpu;
    options.threads = threads;
    const ChaosOutcome o = run_chaos(s, options);
    const auto n = static_cast<std::size_t>(o.trajectories);
    for (std::size_t i = 0; i < n; ++i) {
      const auto expected = scalar_values<Indicator>(s, rows.data() + 4 * i);
      for (int k = 0; k < o.samples; ++k)
        for (int j = 0; j < o.outputs; ++j)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(
                        o.values[(static_cast<std::size_t>(k) * o.outputs + j) * n + i]),
                    std::bit_cast<std::uint64_t>(expected[static_cast<std::size_t>(k * o.outputs + j)]))
              << "trajectory " << i << " sample " << k << " output " << j << " threads " << threads;
    }
  }
}

TEST(ChaosLanes, GrowthIndicatorsAreTheScalarAgentsBits) {
  expect_lanes_match_scalar<GrowthIndicators<double, 4>>(ChaosKernel::growth);
}

TEST(ChaosLanes, SaliIsTheScalarAgentsBits) {
  expect_lanes_match_scalar<SaliIndicator<double, 4>>(ChaosKernel::sali);
}

TEST(ChaosLanes, LorenzSpectrum) {
  // σ = 10, ρ = 28, β = 8/3: λ₁ = 0.9056 (Viswanath, "Symbolic dynamics and periodic orbits of
  // the Lorenz attractor", Nonlinearity 16, 1035 (2003); Sprott, "Chaos and Time-Series
  // Analysis" (2003), table of exponents), λ₂ = 0, and λ₁ + λ₂ + λ₃ = −(σ + 1 + β), the trace of
  // the Jacobian (constant): the volume contraction.
  constexpr double kFiniteTime = 0.03;  // λ₁ at t = 500 from one orbit: its finite-time spread
  constexpr double kTraceError = 1e-4;  // rk4's det(DΦ_h) = e^{h tr J}(1 + O(h⁵)) per step
  const double rows[6] = {1.0, 1.0, 1.0, 10.0, 28.0, 8.0 / 3.0};
  ChaosSetup s;
  s.ensemble.problem = 1;  // lorenz
  s.ensemble.integrator = ensemble_integrator_index("rk4");
  s.ensemble.dt = 0.005;
  s.ensemble.steps = 100000;
  s.ensemble.trajectories = 1;
  s.ensemble.starts.rows = rows;
  s.kernel = ChaosKernel::spectrum;
  s.every = 10;
  s.samples = 1;
  EnsembleRunOptions on_cpu;
  on_cpu.backend = Backend::cpu;
  const ChaosOutcome o = run_chaos(s, on_cpu);
  ASSERT_EQ(o.outputs, 3);
  const double l1 = o.values[0], l2 = o.values[1], l3 = o.values[2];
  EXPECT_NEAR(l1, 0.9056, kFiniteTime);
  EXPECT_NEAR(l2, 0.0, kFiniteTime);
  EXPECT_NEAR(l1 + l2 + l3, -(10.0 + 1.0 + 8.0 / 3.0), kTraceError);
}

TEST(ChaosLanes, SetupsTheLanesDoNotRunAreRefused) {
  const auto rows = section_rows(3);
  ChaosSetup s = henon_heiles_setup(rows, ChaosKernel::growth);
  s.every = 7;
  EXPECT_THROW(run_chaos(s, {}), ParameterError);
  s = henon_heiles_setup(rows, ChaosKernel::growth);
  s.ensemble.integrator = ensemble_integrator_index("ab2");
  EXPECT_THROW(run_chaos(s, {}), ParameterError);
  s = henon_heiles_setup(rows, ChaosKernel::spectrum);
  s.ensemble.problem = kEnsembleProblemCount - 1;  // three-body: 18 words
  EXPECT_THROW(run_chaos(s, {}), ParameterError);
}

}  // namespace
}  // namespace orrery
