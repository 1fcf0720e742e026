// SPDX-License-Identifier: MIT
// The order conditions of every splitting table, checked exactly. A drift c is the flow
// exp(c h A) of T and a kick d the flow exp(d h B) of V (A, B their Lie derivatives), so a table is
// the product of its operations' exponentials, expanded in the free algebra of A and B (the
// Baker–Campbell–Hausdorff setting of Hairer, Lubich & Wanner, "Geometric Numerical
// Integration", §III.4–5), and it has order p when that product equals the exact flow
// exp(h (A + B)) up to h^p:
//
//   every word of n ≤ p letters has the coefficient 1/n!   (n! × coefficient − 1 = 0).
//
// A and B are taken free (no relation between them), which makes these conditions sufficient for
// every separable H = T(v) + V(x); a composition of leapfrogs must meet them all. Taking the
// operations in the other order turns each word around, which leaves 1/n! as it is, so the order
// of the flows' composition does not matter. The products are formed in float128 from the
// tables' doubles, so a condition is evaluated to ~10⁻³⁰: what remains is the tables' own rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "orrery/core/float128.hpp"
#include "orrery/integrate/integrator_tables.hpp"

namespace orrery {
namespace {

// The words of up to 9 letters: yoshida8's conditions and the first it does not meet.
constexpr int kMaxDegree = 9;
// Yoshida's weights are doubles within 2^−51 (order 8, solution D) to 2^−53 of a solution; a
// condition of degree n is a polynomial of degree n in them, and n! × its error grows with n and
// with |w|: measured ≤ 2·10⁻¹¹ (yoshida8, degree 8), ≤ 10⁻¹³ (yoshida6), ≤ 10⁻¹⁵ (yoshida4). A
// coefficient off by 10⁻⁶ misses a condition by ≥ 10⁻⁶ (checked below).
constexpr double kRoundedCoefficients = 1e-10;
// The first condition a table does not meet is missed by O(1) (its leading error term).
constexpr double kUnmetCondition = 1e-3;

// A series in the free algebra of A (drift) and B (kick), truncated after kMaxDegree letters. The
// word of n letters with bits w (the first letter the highest bit, B = 1) is at (2^n − 1) + w.
class WordSeries {
 public:
  WordSeries() { coefficient_[0] = 1; }  // the empty word: the identity

  // this ← this · exp(c X) for X = A (drift) or B (kick). Longer words first, so that each word
  // is read before anything is added to it.
  void multiply_by_exponential(const SplitOp& op) {
    const int letter = op.kind == SplitKind::kick ? 1 : 0;
    const float128 c = op.coefficient;
    for (int n = kMaxDegree - 1; n >= 0; --n)
      for (int w = 0; w < (1 << n); ++w) {
        const float128 v = coefficient_[index(n, w)];
        if (v == 0) continue;
        float128 term = v;
        int word = w;
        for (int k = 1; n + k <= kMaxDegree; ++k) {
          term = term * c / k;
          word = 2 * word + letter;
          coefficient_[index(n + k, word)] += term;
        }
      }
  }

  // max over the words of n letters of |n! × coefficient − 1|, and the root of the sum of squares.
  void defect(int n, double& largest, double& norm) const {
    float128 factorial = 1;
    for (int k = 2; k <= n; ++k) factorial *= k;
    float128 worst = 0, squares = 0;
    for (int w = 0; w < (1 << n); ++w) {
      const float128 d = factorial * coefficient_[index(n, w)] - 1;
      worst = std::max(worst, fabsq(d));
      squares += d * d;
    }
    largest = static_cast<double>(worst);
    norm = static_cast<double>(sqrtq(squares));
  }

 private:
  static int index(int n, int w) { return (1 << n) - 1 + w; }
  std::array<float128, (2 << kMaxDegree) - 1> coefficient_{};
};

struct Defects {
  std::vector<double> largest, norm;  // by degree, from 1
};

Defects defects(std::span<const SplitOp> ops, int max_degree) {
  WordSeries series;
  for (const SplitOp& op : ops) series.multiply_by_exponential(op);
  Defects d;
  for (int n = 1; n <= max_degree; ++n) {
    double largest = 0, norm = 0;
    series.defect(n, largest, norm);
    d.largest.push_back(largest);
    d.norm.push_back(norm);
  }
  return d;
}

// The largest defect over the degrees 1 … p.
double worst_up_to(const Defects& d, int p) {
  return *std::max_element(d.largest.begin(), d.largest.begin() + p);
}

template <class Table>
void expect_order() {
  const int p = Table::order;
  const Defects d = defects(std::span<const SplitOp>(Table::ops), p + 1);
  std::printf("%-16s order %d: worst condition up to degree %d %.1e, degree %d %.3g\n",
              Table::name, p, p, worst_up_to(d, p), p + 1, d.largest[static_cast<std::size_t>(p)]);
  EXPECT_LE(worst_up_to(d, p), kRoundedCoefficients) << Table::name;
  EXPECT_GE(d.largest[static_cast<std::size_t>(p)], kUnmetCondition)
      << Table::name << ": the order is higher than the registry says";
}

TEST(SplittingOrderConditions, EveryTableHasItsOrder) {
  int checked = 0;
  [&]<class... Tables>(TableList<Tables...>) {
    (([&] {
       if constexpr (Tables::family == IntegratorFamily::splitting) {
         expect_order<Tables>();
         ++checked;
       }
     }()),
     ...);
  }(IntegratorTables{});
  EXPECT_EQ(checked, 5);  // symplectic Euler, leapfrog, Yoshida's three
}

// The check fails loudly for a coefficient off by 10⁻⁶ (the error of issue 32's planted bug):
// Yoshida's fourth with w1 + 10⁻⁶ (w0 = 1 − 2 w1 keeps Σ = 1), the higher ones with one weight
// moved (the sums kept exact by the same construction as the tables), and yoshida8 with one kick
// moved and its neighbour moved back (Σ kicks kept).
constexpr double kPlanted = 1e-6;
// A planted error must miss some condition by at least this.
constexpr double kPlantedMiss = 1e-7;

TEST(SplittingOrderConditions, ACoefficientOffBy1e6Fails) {
  const double w1 = yoshida::w1 + kPlanted, w0 = 1 - 2 * w1;
  const SplitOp y4[] = {{SplitKind::kick, w1 / 2},        {SplitKind::drift, w1},
                        {SplitKind::kick, (1 - w1) / 2}, {SplitKind::drift, w0},
                        {SplitKind::kick, (1 - w1) / 2}, {SplitKind::drift, w1},
                        {SplitKind::kick, w1 / 2}};
  const double y4_miss = worst_up_to(defects(y4, 4), 4);
  std::printf("yoshida4, w1 + 1e-6: worst condition %.1e\n", y4_miss);
  EXPECT_GE(y4_miss, kPlantedMiss);

  auto moved = []<class Table>(int i) {
    double weights[std::size(Table::weights)];
    std::copy(std::begin(Table::weights), std::end(Table::weights), weights);
    weights[i] += kPlanted;
    const auto ops = detail::symmetric_composition(weights, Table::grid_exponent);
    return worst_up_to(defects(ops, Table::order), Table::order);
  };
  for (int i = 0; i < 3; ++i) {
    const double miss = moved.template operator()<Yoshida6>(i);
    std::printf("yoshida6, w%d + 1e-6: worst condition %.1e\n", i + 1, miss);
    EXPECT_GE(miss, kPlantedMiss) << "w" << i + 1;
  }
  for (int i = 0; i < 7; ++i) {
    const double miss = moved.template operator()<Yoshida8>(i);
    std::printf("yoshida8, w%d + 1e-6: worst condition %.1e\n", i + 1, miss);
    EXPECT_GE(miss, kPlantedMiss) << "w" << i + 1;
  }
  std::array<SplitOp, Yoshida8::length> kicks = Yoshida8::ops;
  kicks[10].coefficient += kPlanted;  // a kick between two drifts ...
  kicks[12].coefficient -= kPlanted;  // ... and the next
  const double kick_miss = worst_up_to(defects(kicks, 8), 8);
  std::printf("yoshida8, one kick + 1e-6, the next - 1e-6: worst condition %.1e\n", kick_miss);
  EXPECT_GE(kick_miss, kPlantedMiss);
}

// Why solution D for yoshida8: of the fifteen-leapfrog compositions of order 8 Yoshida found, its
// leading error term (the words of degree 9) is the smallest. Solution A (Yoshida 1990, Table 2,
// as printed: its 15 digits change the degree-9 terms by ~10⁻¹⁰) has one thousands of times as
// large; the table must not fall back to it.
constexpr double kSolutionAPrinted[7] = {-1.61582374150097,  -2.44699182370524,
                                         -0.716989419708120e-2, 2.44002732616735,
                                         0.157739928123617, 1.82020630970714,
                                         1.04242620869991};
constexpr double kSmallerLeadingError = 1e-3;

TEST(SplittingOrderConditions, Yoshida8HasTheSmallerLeadingErrorOfSolutionD) {
  const auto solution_a = detail::symmetric_composition(kSolutionAPrinted, 49);
  const double a = defects(solution_a, 9).norm[8];
  const double d = defects(std::span<const SplitOp>(Yoshida8::ops), 9).norm[8];
  std::printf("degree-9 error terms (root sum of squares): solution A %.3g, yoshida8 %.3g\n", a, d);
  EXPECT_LE(d, kSmallerLeadingError * a);
}

}  // namespace
}  // namespace orrery
