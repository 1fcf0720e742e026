// SPDX-License-Identifier: MIT
// The embedded Runge–Kutta pairs satisfy the order conditions of both their weight sets: the
// advanced solution's b (its order is also measured on Kepler, integrator_convergence_test.cpp)
// and the estimate's b̂, which nothing else exercises yet. The conditions are the rooted trees of
// order ≤ 5 (Hairer, Nørsett & Wanner, "Solving ODEs I", Table II.2.2): Σ b_i Φ_i(t) = 1/γ(t).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"

namespace orrery {
namespace {

// The coefficients are fractions rounded to double; sums of a few products of them.
constexpr double kConditionBound = 1e-14;
// A condition a weight set does not satisfy misses it by far more than the rounding above.
constexpr double kUnmetCondition = 1e-6;

template <class T>
struct Conditions {
  static constexpr int s = T::stages;
  using Vec = std::array<double, s>;

  static Vec times_a(const Vec& v) {  // (A v)_i = Σ_j a_ij v_j
    Vec r{};
    for (int i = 0; i < s; ++i)
      for (int j = 0; j < s; ++j) r[i] += T::a(i, j) * v[j];
    return r;
  }
  static Vec mul(const Vec& u, const Vec& v) {
    Vec r{};
    for (int i = 0; i < s; ++i) r[i] = u[i] * v[i];
    return r;
  }
  template <class W>
  static double dot(W w, const Vec& v) {
    double r = 0;
    for (int i = 0; i < s; ++i) r += w(i) * v[i];
    return r;
  }

  // The largest |Σ w_i Φ_i − 1/γ| over the trees of order ≤ p.
  template <class W>
  static double worst(W w, int p) {
    Vec one, c;
    for (int i = 0; i < s; ++i) one[i] = 1.0, c[i] = T::c(i);
    const Vec c2 = mul(c, c), c3 = mul(c2, c), ac = times_a(c), ac2 = times_a(c2);
    const Vec aac = times_a(ac);
    struct Tree {
      int order;
      Vec phi;
      double gamma;
    };
    const std::vector<Tree> trees{
        {1, one, 1},
        {2, c, 2},
        {3, c2, 3},          {3, ac, 6},
        {4, c3, 4},          {4, mul(c, ac), 8},   {4, ac2, 12},             {4, aac, 24},
        {5, mul(c3, c), 5},  {5, mul(c2, ac), 10}, {5, mul(c, ac2), 15},     {5, mul(c, aac), 30},
        {5, mul(ac, ac), 20}, {5, times_a(c3), 20}, {5, times_a(mul(c, ac)), 40},
        {5, times_a(ac2), 60}, {5, times_a(aac), 120}};
    double worst = 0;
    for (const Tree& t : trees)
      if (t.order <= p) worst = std::max(worst, std::abs(dot(w, t.phi) - 1.0 / t.gamma));
    return worst;
  }

  static void check() {
    for (int i = 0; i < s; ++i) {  // c_i = Σ_j a_ij: every stage at its own time
      double row = 0;
      for (int j = 0; j < s; ++j) row += T::a(i, j);
      EXPECT_NEAR(row, T::c(i), kConditionBound) << T::name << " row " << i;
    }
    EXPECT_LT(worst([](int i) { return T::b(i); }, T::order), kConditionBound) << T::name;
    EXPECT_LT(worst([](int i) { return T::b_embedded(i); }, T::embedded_order), kConditionBound)
        << T::name;
    // The 4th-order set of each pair fails a 5th-order condition (the trees listed stop at 5):
    // the two sets differ, and their difference, the error estimate, is of order h⁵.
    if (T::order == 4)
      EXPECT_GT(worst([](int i) { return T::b(i); }, 5), kUnmetCondition) << T::name;
    if (T::embedded_order == 4)
      EXPECT_GT(worst([](int i) { return T::b_embedded(i); }, 5), kUnmetCondition) << T::name;
  }
};

TEST(EmbeddedPairs, BothWeightSetsHaveTheirOrders) {
  Conditions<DormandPrince5>::check();
  Conditions<CashKarp>::check();
  Conditions<Fehlberg45>::check();
}

}  // namespace
}  // namespace orrery
