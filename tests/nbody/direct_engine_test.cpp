// SPDX-License-Identifier: MIT
// The direct CPU engine against a plain double loop in higher precision (long double for fp32
// and fp64, float128 for float128), for every instruction-set variant this CPU runs and every
// precision:
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2},   ε_ij² = (ε_i² + ε_j²)/2,
//   U   = −G Σ_{i<j} m_i m_j / (|x_j − x_i|² + ε_ij²)^{1/2}.
// Tolerances are error bounds of the computation, never fitted to what a run happened to give:
// a term's roundings are bounded as in N. J. Higham, Accuracy and Stability of Numerical
// Algorithms (2nd ed., 2002), §3; a sum of n terms by the probabilistic bound λ√n·u·Σ|term|
// of N. J. Higham and T. Mary, "A new approach to probabilistic rounding error analysis",
// SIAM J. Sci. Comput. 41(5), A2815 (2019), which holds with probability of about
// 1 − 2n·exp(−λ²/2) or more per sum, for rounding errors independent and of mean zero (the worst case, n·u·Σ|term|, is
// 5 to 30 times looser at these N).
#include "nbody/direct_engine_fixture.hpp"

namespace orrery {
namespace {

template <class Real>
class DirectEngineTest : public ::testing::Test {};
TYPED_TEST_SUITE(DirectEngineTest, Reals, RealNames);

TYPED_TEST(DirectEngineTest, MatchesReferenceLoop) {
  using Real = TypeParam;
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, large_n<Real>()})
    for (Softening soft : {Softening::none, Softening::global, Softening::per_particle}) {
      const System sys = random_system(n, soft, 7 + n);
      const Reference ref = reference<Real>(sys);
      for (const auto& kernel : kernels_to_test<Real>()) {
        SCOPED_TRACE("N = " + std::to_string(n) + ", softening " +
                     std::to_string(static_cast<int>(soft)) + ", kernel '" + kernel + "'");
        const Result<Real> r = run_direct<Real>(sys, kernel, 2);
        expect_close_to_reference(r.a, ref, n);
        const double energy_tol = kEnergyRoundings * (kEnergyRoundoff<Real> + kRefRoundoff<Real>) *
                                  std::fabs(double(ref.energy));
        EXPECT_NEAR(r.energy, static_cast<double>(ref.energy), energy_tol);
        if (n == 1) {
          EXPECT_EQ(r.a, std::vector<Real>(3, Real(0)));
          EXPECT_EQ(r.energy, 0.0);
        }
      }
    }
}

TYPED_TEST(DirectEngineTest, MatchesReferenceLoopOverSeveralTiles) {
  using Real = TypeParam;
  if constexpr (std::is_same_v<Real, float128>) GTEST_SKIP() << "one scalar loop, no tiles";
  const std::size_t n = tiled_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 23);
  const Reference ref = reference<Real>(sys);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> r = run_direct<Real>(sys, kernel, 2);
    expect_close_to_reference(r.a, ref, n);
  }
}

// Σ m_i a_i = 0 exactly; computed, each a_i is off by at most its bound
// (kTermRoundings + λ√N) u Σ_j|term_ij|, hence |Σ m_i a_i| / Σ m_i |a_i| ≤
// (kTermRoundings + λ√N) u Σ m_i Σ_j|term_ij| / Σ m_i |a_i|.
TYPED_TEST(DirectEngineTest, ConservesMomentumToRounding) {
  using Real = TypeParam;
  const std::size_t n = large_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 11);
  const Reference ref = reference<Real>(sys);
  const auto m = rounded<Real>(sys.mass);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> r = run_direct<Real>(sys, kernel, 2);
    float128 p[3] = {0, 0, 0}, scale = 0, bound_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) p[c] += static_cast<float128>(m[i]) * r.a[c * n + i];
      scale += m[i] * norm_at(r.a, n, i);
      bound_sum += m[i] * ref.abs_sum[i];
    }
    const double imbalance =
        static_cast<double>(sqrtq(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / scale);
    const double bound = (kTermRoundings + kLambda * std::sqrt(static_cast<double>(n))) *
                         (kUnitRoundoff<Real> + kRefRoundoff<Real>) *
                         static_cast<double>(bound_sum / scale);
    EXPECT_LE(imbalance, bound);
    // Not a vacuous bound: well below what one missing interaction would leave.
    EXPECT_LT(bound, 1e-3);
  }
}

// The same bits for 1, 2 and 3 threads (the system split among them however small it is), on
// a repeated run, and as the engine's own rule runs it (on one thread, at this size).
TYPED_TEST(DirectEngineTest, BitIdenticalAcrossThreadCounts) {
  using Real = TypeParam;
  const std::size_t n = tiled_n<Real>();
  const System sys = random_system(n, Softening::per_particle, 5);
  for (const auto& kernel : kernels_to_test<Real>()) {
    SCOPED_TRACE("kernel '" + kernel + "'");
    const Result<Real> one = run_direct<Real>(sys, kernel, 0, 0);
    for (int threads : {1, 2, 3}) {
      const Result<Real> r = run_direct<Real>(sys, kernel, threads);
      EXPECT_EQ(std::memcmp(r.a.data(), one.a.data(), r.a.size() * sizeof(Real)), 0)
          << threads << " threads";
      EXPECT_EQ(std::memcmp(&r.energy, &one.energy, sizeof(double)), 0) << threads << " threads";
    }
  }
}

// Two bodies, softened with a global ε and per particle: the closed form
//   a_0 = G m_1 d / (r² + ε²)^{3/2},  a_1 = −G m_0 d / (r² + ε²)^{3/2},  U = −G m_0 m_1/√(r² + ε²).
}  // namespace
}  // namespace orrery
