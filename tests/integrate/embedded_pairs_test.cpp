// SPDX-License-Identifier: MIT
// The explicit Runge–Kutta tables satisfy the order conditions of their weight sets, in float128
// from the tables' full-precision coefficients: the advanced solution's b (its order is also
// measured on Kepler, integrator_convergence_test.cpp) and the embedded b̂ of the pairs (b − kE
// where a pair publishes its error weights). Checked: c_i = Σ_j a_ij; every rooted tree up to
// order min(p, kMaxTreeOrder) (rooted_trees.hpp); and the quadrature conditions
// Σ b_i c_i^{k−1} = 1/k up to the full order p.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "orrery/core/float128.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/runge_kutta/adaptive_array_stepper.hpp"
#include "rooted_trees.hpp"

namespace orrery {
namespace {

// Trees of order ≤ 8 (200 of them); those of orders 9–14 (52 000 more) are left to the
// quadrature conditions and to the measured convergence order.
constexpr int kMaxTreeOrder = 8;
// Coefficients exact to float128's 113 bits, summed over ≤ 35 stages with products of size ≤ 10²:
// the conditions hold to a few hundred float128 ulps. A digit wrong anywhere in the first ~30
// of a coefficient misses a condition by far more.
constexpr double kFullPrecisionBound = 1e-30;
// DOP853's coefficients are published to 30 digits (dop853.f): its conditions hold to ~3·10⁻²⁹
// and its error weights (28 digits) to ~5·10⁻²⁸.
constexpr double kThirtyDigitBound = 2e-27;
// A condition a weight set does not satisfy misses it by far more than any rounding above.
constexpr double kUnmetCondition = 1e-8;

using Vec = std::vector<float128>;

template <class T>
struct Conditions {
  static constexpr int s = T::stages;

  static float128 q(const auto& c) { return coefficient_as<float128>(as_coefficient(c)); }

  static Vec times_a(const Vec& v) {  // (A v)_i = Σ_j a_ij v_j
    Vec r(s, 0);
    for (int i = 0; i < s; ++i)
      for (int j = 0; j < i; ++j) r[i] += q(T::a(i, j)) * v[j];
    return r;
  }

  static Vec weights() {
    Vec b(s);
    for (int i = 0; i < s; ++i) b[i] = q(T::b(i));
    return b;
  }
  static Vec embedded_weights() {
    Vec b(s);
    for (int i = 0; i < s; ++i) {
      if constexpr (requires { T::error_weight(0); })
        b[i] = q(T::b(i)) - q(T::error_weight(i));
      else
        b[i] = q(T::b_embedded(i));
    }
    return b;
  }

  // The largest |Σ w_i Φ_i(t) − 1/γ(t)| over the trees of order ≤ p, and over the quadrature
  // conditions of order ≤ quadrature_order.
  static double worst(const Vec& w, int p, int quadrature_order) {
    const std::vector<test::RootedTree> trees = test::rooted_trees(p);
    std::vector<Vec> a_phi;  // A Φ(t) of each tree, for the trees that contain it
    float128 worst = 0;
    for (const test::RootedTree& t : trees) {
      Vec phi(s, 1);
      for (int k : t.subtrees)
        for (int i = 0; i < s; ++i) phi[i] *= a_phi[static_cast<std::size_t>(k)][i];
      float128 sum = 0;
      for (int i = 0; i < s; ++i) sum += w[i] * phi[i];
      worst = std::max(worst, fabsq(sum - 1 / float128(t.gamma)));
      a_phi.push_back(times_a(phi));
    }
    Vec c(s), power(s, 1);
    for (int i = 0; i < s; ++i) c[i] = q(T::c(i));
    for (int k = 1; k <= quadrature_order; ++k) {
      float128 sum = 0;
      for (int i = 0; i < s; ++i) sum += w[i] * power[i];
      worst = std::max(worst, fabsq(sum - 1 / float128(k)));
      for (int i = 0; i < s; ++i) power[i] *= c[i];
    }
    return static_cast<double>(worst);
  }

  static void check(double bound) {
    for (int i = 0; i < s; ++i) {  // c_i = Σ_j a_ij: every stage at its own time
      float128 row = 0;
      for (int j = 0; j < i; ++j) row += q(T::a(i, j));
      EXPECT_LT(static_cast<double>(fabsq(row - q(T::c(i)))), bound) << T::name << " row " << i;
    }
    const int p = T::order;
    const double met = worst(weights(), std::min(p, kMaxTreeOrder), p);
    std::printf("%-10s b  (order %2d): worst condition %.1e\n", T::name, p, met);
    EXPECT_LT(met, bound) << T::name;
    // One order more fails, where its trees are few enough to list: the order is not higher.
    if (p < kMaxTreeOrder + 1) {
      EXPECT_GT(worst(weights(), p + 1, p + 1), kUnmetCondition) << T::name;
    }
    if constexpr (EmbeddedPair<T>) {
      const int q_order = T::embedded_order;
      const double embedded = worst(embedded_weights(), std::min(q_order, kMaxTreeOrder), q_order);
      std::printf("%-10s b̂ (order %2d): worst condition %.1e\n", T::name, q_order, embedded);
      EXPECT_LT(embedded, bound) << T::name;
      if (q_order < kMaxTreeOrder + 1) {
        EXPECT_GT(worst(embedded_weights(), q_order + 1, q_order + 1), kUnmetCondition) << T::name;
      }
    }
  }
};

TEST(RootedTrees, CountsPerOrderAreTheKnownOnes) {
  // The number of rooted trees with n nodes (Cayley; OEIS A000081).
  const std::array<int, 9> expected{0, 1, 1, 2, 4, 9, 20, 48, 115};
  std::array<int, 9> counted{};
  for (const test::RootedTree& t : test::rooted_trees(8)) ++counted[static_cast<std::size_t>(t.order)];
  EXPECT_EQ(counted, expected);
}

TEST(EmbeddedPairs, BothWeightSetsHaveTheirOrders) {
  Conditions<ClassicRK4>::check(kFullPrecisionBound);
  Conditions<DormandPrince5>::check(kFullPrecisionBound);
  // Tsitouras' decimals to 40 digits: the conditions hold to float128's rounding.
  Conditions<Tsitouras5>::check(kFullPrecisionBound);
  Conditions<CashKarp>::check(kFullPrecisionBound);
  Conditions<Fehlberg45>::check(kFullPrecisionBound);
  Conditions<Verner65>::check(kFullPrecisionBound);
  Conditions<Fehlberg78>::check(kFullPrecisionBound);
  Conditions<DormandPrince853>::check(kThirtyDigitBound);
}

TEST(EmbeddedPairs, FeaginTablesHaveTheirOrders) {
  Conditions<Feagin10>::check(kFullPrecisionBound);
  Conditions<Feagin12>::check(kFullPrecisionBound);
  Conditions<Feagin14>::check(kFullPrecisionBound);
}

}  // namespace
}  // namespace orrery
