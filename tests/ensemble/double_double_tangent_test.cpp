// SPDX-License-Identifier: MIT
// Deviation vectors in double-double beside the fp64 state (core/dual.hpp with W = DoubleDouble):
// the state keeps the fp64 run's bits; over a short run the vectors are the fp64 vectors to
// fp64's accuracy and the step's derivative by central differences to its truncation error; a
// chaotic Hénon–Heiles orbit's SALI falls below 10⁻²⁰ with them where fp64's floors near 10⁻¹⁶,
// and a regular orbit's stays away from 0 with both; the CPU kernel (chaos_dd_lanes.cpp) gives
// the scalar agent's bits; what it is not built for is refused. And the SIMD logarithm the lanes
// take (core/simd_log.hpp) is exact_log's, bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "orrery/core/double_double_fp64.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/simd_group.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/chaos/chaos_trajectory.hpp"

namespace orrery {
namespace {

using DD = DoubleDouble<double>;
using HH = HenonHeilesProblem;
constexpr std::array<double, 4> kChaoticStart{0.0, -0.25, 0.42081, 0.0};  // Skokos 2001's orbit
constexpr std::array<double, 4> kRegularStart{0.0, 0.15, 0.47932, 0.0};   // the central island

// The state and vectors after `steps` steps of yoshida4 (h = 0.01) from y0, K vectors in words W.
template <int K, class W>
typename TangentSystem<HH, double, K, W>::State tangent_run(
    const std::array<double, 4>& y0, const typename TangentSystem<HH, double, K, W>::Vectors& m,
    std::int64_t steps) {
  using TS = TangentSystem<HH, double, K, W>;
  typename TS::State st;
  for (int i = 0; i < 4; ++i) TS::Base::word(st, i) = typename TS::E(y0[i]);
  TS::set_vectors(st, m);
  const double none[1] = {};
  integrate_tangent<HH, Yoshida4, double, K, W>(st, TS::field({}, none), 0.01, steps, 1,
                                                [](std::int64_t, auto&) {});
  return st;
}

TEST(DoubleDoubleTangent, ShortRunsAreTheFp64VectorsAndTheStepsDerivative) {
  constexpr std::int64_t kSteps = 300;
  using Fp = TangentSystem<HH, double, 1>;
  using Dd = TangentSystem<HH, double, 1, DD>;
  Fp::Vectors mf;
  Dd::Vectors md;
  for (int i = 0; i < 4; ++i) {
    mf.w[i][0] = std::cos(1.0 + 0.7 * i);
    md.w[i][0] = DD(mf.w[i][0]);
  }
  const auto f = tangent_run<1, double>(kChaoticStart, mf, kSteps);
  const auto d = tangent_run<1, DD>(kChaoticStart, md, kSteps);
  // fp64's vector carries a few units of rounding per operation of 300 steps (measured 4e-15
  // relative); double-double's 2⁻¹⁰⁴ of it.
  constexpr double kFp64Rounding = 1e-12;
  double scale = 0;
  for (int i = 0; i < 4; ++i) scale = std::max(scale, std::abs(Fp::Base::word(f, i).d[0]));
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(Dd::value(d, i)),
              std::bit_cast<std::uint64_t>(Fp::value(f, i)))
        << "word " << i << ": the state left the fp64 bits";
    const DD w = Dd::Base::word(d, i).d[0];
    EXPECT_NEAR(w.hi + w.lo, Fp::Base::word(f, i).d[0], kFp64Rounding * scale) << "word " << i;
  }
  // Central differences of the plain fp64 run, (Φ(y + εw) − Φ(y − εw))/2ε, err by (ε²/6)Φ''':
  // halving ε quarters the error (order 2) while it is above rounding's u|Φ|/ε.
  constexpr double kOrderSlack = 0.2;
  const auto plain = [&](double s) {
    Fp::Vectors zero{};
    std::array<double, 4> y = kChaoticStart;
    for (int i = 0; i < 4; ++i) y[i] += s * std::cos(1.0 + 0.7 * i);
    const auto st = tangent_run<1, double>(y, zero, kSteps);
    std::array<double, 4> out;
    for (int i = 0; i < 4; ++i) out[i] = Fp::value(st, i);
    return out;
  };
  double error[3];
  for (int j = 0; j < 3; ++j) {
    const double eps = 1e-3 / (1 << j);
    const auto up = plain(eps), down = plain(-eps);
    error[j] = 0;
    for (int i = 0; i < 4; ++i) {
      const DD w = Dd::Base::word(d, i).d[0];
      error[j] = std::max(error[j], std::abs((up[i] - down[i]) / (2 * eps) - (w.hi + w.lo)));
    }
  }
  EXPECT_NEAR(std::log2(error[0] / error[1]), 2.0, kOrderSlack) << error[0] << " " << error[1];
  EXPECT_NEAR(std::log2(error[1] / error[2]), 2.0, kOrderSlack) << error[1] << " " << error[2];
}

// SALI at `samples` times to t = 2000 with vectors in words W (the scalar agent).
template <class W>
std::vector<double> sali_run(const std::array<double, 4>& y0, int samples) {
  using TS = TangentSystem<HH, double, 2, W>;
  typename TS::State st;
  for (int i = 0; i < 4; ++i) TS::Base::word(st, i) = typename TS::E(y0[i]);
  const double none[1] = {};
  SaliIndicator<W, 4> indicator;
  std::vector<double> out;
  chaos_trajectory<HH, Yoshida4>(st, TS::field({}, none), 0.01, 200000, 10, samples, indicator,
                                 [&](int, const W (&v)[1]) {
                                   if constexpr (std::is_same_v<W, double>)
                                     out.push_back(v[0]);
                                   else
                                     out.push_back(v[0].hi);
                                 });
  return out;
}

TEST(DoubleDoubleTangent, ChaoticSaliFallsBelowTheFp64Floor) {
  constexpr int kSamples = 20;  // every t = 100
  const auto fp64 = sali_run<double>(kChaoticStart, kSamples);
  const auto dd = sali_run<DD>(kChaoticStart, kSamples);
  // Two unit fp64 vectors are not resolved closer than about an ulp: fp64's SALI floors near
  // 10⁻¹⁶ from t ≈ 700 (measured: its least value 4e-16) and never goes below 10⁻¹⁸.
  constexpr double kFp64Floor = 1e-18;
  for (double v : fp64) EXPECT_GT(v, kFp64Floor);
  // Double-double's falls on at e^{−(λ₁−λ₂)t} to its own floor, ~10⁻³⁰ (measured 3e-31 at
  // t = 2000): far below fp64's.
  constexpr double kBelowFp64 = 1e-20;
  EXPECT_LT(dd.back(), kBelowFp64);
  // Before fp64's floor both follow the same exponential fall: at t = 300 (SALI ~1e-7) fp64's
  // rounding, 1e-16 of unit vectors, is ~1e-9 of their difference, grown along the orbit.
  constexpr double kSameFall = 1e-4;
  EXPECT_NEAR(dd[2] / fp64[2], 1.0, kSameFall);
}

TEST(DoubleDoubleTangent, RegularSaliStaysAwayFromZeroWithBoth) {
  constexpr double kRegularSali = 1e-3;  // a torus: SALI oscillates about a positive value
  for (double v : sali_run<double>(kRegularStart, 10)) EXPECT_GT(v, kRegularSali);
  for (double v : sali_run<DD>(kRegularStart, 10)) EXPECT_GT(v, kRegularSali);
}

TEST(DoubleDoubleTangent, CpuKernelIsTheScalarAgentsBits) {
  std::vector<double> rows;
  for (int i = 0; i < 5; ++i) {
    const double y = -0.3 + 0.6 * i / 5, v = y * y / 2 - y * y * y / 3;
    rows.insert(rows.end(), {0.0, y, std::sqrt(2 * (0.125 - v)), 0.0});
  }
  ChaosSetup s;
  s.ensemble.problem = 0;  // henon-heiles
  s.ensemble.integrator = ensemble_integrator_index("yoshida4");
  s.ensemble.dt = 0.01;
  s.ensemble.steps = 20000;
  s.ensemble.trajectories = 5;
  s.ensemble.starts.rows = rows.data();
  s.kernel = ChaosKernel::sali;
  s.every = 10;
  s.samples = 4;
  s.double_double_vectors = true;
  for (int threads : {1, 2}) {
    EnsembleRunOptions options;
    options.backend = Backend::cpu;
    options.threads = threads;
    const ChaosOutcome o = run_chaos(s, options);
    for (std::size_t i = 0; i < 5; ++i) {
      using TS = TangentSystem<HH, double, 2, DD>;
      typename TS::State st;
      for (int w = 0; w < 4; ++w) TS::Base::word(st, w) = typename TS::E(rows[4 * i + w]);
      const double none[1] = {};
      SaliIndicator<DD, 4> indicator;
      std::vector<double> expected;
      chaos_trajectory<HH, Yoshida4>(st, TS::field({}, none), 0.01, s.ensemble.steps, s.every,
                                     s.samples, indicator,
                                     [&](int, const DD (&v)[1]) { expected.push_back(v[0].hi); });
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(o.values[static_cast<std::size_t>(k) * 5 + i]),
                  std::bit_cast<std::uint64_t>(expected[static_cast<std::size_t>(k)]))
            << "trajectory " << i << " sample " << k << " threads " << threads;
      for (int w = 0; w < 4; ++w)
        EXPECT_EQ(o.ensemble.final_state[4 * i + static_cast<std::size_t>(w)], TS::value(st, w));
    }
  }
}

TEST(DoubleDoubleTangent, WhatItIsNotBuiltForIsRefused) {
  const double row[4] = {0.0, -0.25, 0.42081, 0.0};
  ChaosSetup s;
  s.ensemble.problem = 0;
  s.ensemble.integrator = ensemble_integrator_index("yoshida4");
  s.ensemble.dt = 0.01;
  s.ensemble.steps = 100;
  s.ensemble.trajectories = 1;
  s.ensemble.starts.rows = row;
  s.kernel = ChaosKernel::sali;
  s.double_double_vectors = true;
  EnsembleRunOptions on_cpu;
  on_cpu.backend = Backend::cpu;
  EXPECT_NO_THROW(run_chaos(s, on_cpu));
  ChaosSetup growth = s;
  growth.kernel = ChaosKernel::growth;
  EXPECT_THROW(run_chaos(growth, on_cpu), ParameterError);
  ChaosSetup rk4 = s;
  rk4.ensemble.integrator = ensemble_integrator_index("rk4");
  EXPECT_THROW(run_chaos(rk4, on_cpu), ParameterError);
  EnsembleRunOptions on_gpu;
  on_gpu.backend = Backend::cuda;
  try {
    run_chaos(s, on_gpu);
    ADD_FAILURE() << "dd on the GPU ran";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("CPU only"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(chaos_double_double_applies(6, ensemble_integrator_index("leapfrog")));  // 3 bodies
  EXPECT_TRUE(chaos_double_double_applies(0, ensemble_integrator_index("leapfrog")));
}

TEST(SimdLog, EveryLaneIsExactLogsBits) {
  using V = stdx::native_simd<double>;
  constexpr int L = static_cast<int>(V::size());
  std::mt19937_64 rng(27);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> binade(-1074, 1023);
  std::vector<double> x{0.0, -0.0, 1.0, -1.0, 0.7071067811865476, 0.7071067811865475,
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::denorm_min(),
                        std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
                        0x1p-1060, 3e-310};
  while (x.size() < 20000) x.push_back(std::ldexp(mantissa(rng), binade(rng)));
  while (x.size() % (2 * L) != 0) x.push_back(2.0);
  for (std::size_t i = 0; i < x.size(); i += L) {
    const V v([&](auto l) { return x[i + l]; });
    const V r = lane_log(v);
    for (int l = 0; l < L; ++l)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(static_cast<double>(r[l])),
                std::bit_cast<std::uint64_t>(exact_log(x[i + static_cast<std::size_t>(l)])))
          << "x = " << x[i + static_cast<std::size_t>(l)];
  }
  // A group of two vectors takes each vector's logarithm.
  using G = SimdGroup<V, 2>;
  const G g([&](auto l) { return x[l]; });
  const G r = lane_log(g);
  for (int l = 0; l < 2 * L; ++l)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(r[static_cast<std::size_t>(l)]),
              std::bit_cast<std::uint64_t>(exact_log(x[static_cast<std::size_t>(l)])));
}

}  // namespace
}  // namespace orrery
