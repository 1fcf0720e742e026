// SPDX-License-Identifier: MIT
// Double-double arithmetic against __float128 (113 bits, so its own rounding, 2⁻¹¹³ relative, is
// far below the bounds checked): each operation within the relative error Joldes, Muller &
// Popescu (ACM TOMS 44(2), 2017) prove for it, on random operands over many binades; the SIMD
// lanes give the scalar's bits; and the comparison the map's stop rule uses.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "orrery/core/double_double.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/simd.hpp"

namespace orrery {
namespace {

using DD = DoubleDouble<double>;
constexpr double kU2 = 0x1p-106;  // u², u = 2⁻⁵³

float128 wide(const DD& x) { return float128(x.hi) + float128(x.lo); }

DD random_dd(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> binade(-40, 40);
  const double hi = std::ldexp(mantissa(rng), binade(rng));
  double s = 0, e = 0;
  double_word::two_sum(hi, hi * 0x1p-53 * mantissa(rng), s, e);
  return {s, e};
}

double relative_error(const DD& got, float128 exact) {
  return static_cast<double>(fabsq((wide(got) - exact) / exact));
}

TEST(DoubleDouble, EachOperationIsWithinItsPublishedBound) {
  std::mt19937_64 rng(20261128);
  double worst_sum = 0, worst_product = 0, worst_quotient = 0, worst_root = 0;
  for (int i = 0; i < 200000; ++i) {
    const DD x = random_dd(rng), y = random_dd(rng);
    const float128 wx = wide(x), wy = wide(y);
    if (wx + wy != 0) worst_sum = std::max(worst_sum, relative_error(x + y, wx + wy));
    worst_product = std::max(worst_product, relative_error(x * y, wx * wy));
    worst_quotient = std::max(worst_quotient, relative_error(x / y, wx / wy));
    const DD ax = x.hi < 0 ? -x : x;
    worst_root = std::max(worst_root, relative_error(sqrt(ax), sqrtq(wide(ax))));
  }
  // The proven bounds (Theorems 3.1, 5.3, 6.2 of the paper): 3u², 4u², 9.8u²; the root's
  // Newton step from a correctly rounded fp64 root has the quotient's rounding and the
  // residual's, so 3u² holds it.
  EXPECT_LE(worst_sum, 3 * kU2 * (1 + 0x1p-50)) << worst_sum / kU2 << " u²";
  EXPECT_LE(worst_product, 4 * kU2) << worst_product / kU2 << " u²";
  EXPECT_LE(worst_quotient, 9.8 * kU2) << worst_quotient / kU2 << " u²";
  EXPECT_LE(worst_root, 3 * kU2) << worst_root / kU2 << " u²";
  // And the type is really more than fp64: errors of fp64's size would be 2⁵³ times these.
  EXPECT_GT(worst_product, 0.0);
}

TEST(DoubleDouble, CancellationKeepsTheLowPart) {
  // (1 + 2⁻⁸⁰) − 1 is 2⁻⁸⁰ exactly: fp64 would give 0.
  const DD one_plus = DD(1.0) + DD(0x1p-80);
  const DD diff = one_plus - DD(1.0);
  EXPECT_EQ(diff.hi, 0x1p-80);
  EXPECT_EQ(diff.lo, 0.0);
  EXPECT_EQ(sqrt(DD(0.0)).hi, 0.0);
  EXPECT_TRUE(std::isnan(sqrt(DD(-1.0)).hi));
}

TEST(DoubleDouble, SimdLanesGiveTheScalarBits) {
  using V = stdx::native_simd<double>;
  using DV = DoubleDouble<V>;
  std::mt19937_64 rng(7);
  for (int round = 0; round < 1000; ++round) {
    DD xs[V::size()], ys[V::size()];
    DV x{}, y{};
    for (std::size_t l = 0; l < V::size(); ++l) {
      xs[l] = random_dd(rng), ys[l] = random_dd(rng);
      x.hi[l] = xs[l].hi, x.lo[l] = xs[l].lo, y.hi[l] = ys[l].hi, y.lo[l] = ys[l].lo;
    }
    const DV q = sqrt(x * x + y) / y - x;
    const auto le = less_equal(x, y);
    for (std::size_t l = 0; l < V::size(); ++l) {
      const DD s = sqrt(xs[l] * xs[l] + ys[l]) / ys[l] - xs[l];
      ASSERT_EQ(std::isnan(s.hi), std::isnan(q.hi[l]));
      if (!std::isnan(s.hi)) {
        ASSERT_EQ(s.hi, q.hi[l]);
        ASSERT_EQ(s.lo, q.lo[l]);
      }
      ASSERT_EQ(bool(le[l]), less_equal(xs[l], ys[l]));
    }
  }
}

TEST(DoubleDouble, TheOrderLooksAtTheLowPartWhenTheHighPartsTie) {
  EXPECT_TRUE(less_equal(DD(1.0, -0x1p-60), DD(1.0)));
  EXPECT_FALSE(less_equal(DD(1.0, 0x1p-60), DD(1.0)));
  EXPECT_TRUE(less_equal(DD(1.0), DD(1.0)));
  EXPECT_FALSE(less_equal(DD(std::nan("")), DD(1.0)));
}

}  // namespace
}  // namespace orrery
