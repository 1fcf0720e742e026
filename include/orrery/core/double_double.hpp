// SPDX-License-Identifier: MIT
// Double-double ("double-word") numbers: x = hi + lo with |lo| ≤ ulp(hi)/2, about 106 bits of
// significand (unit roundoff u² = 2⁻¹⁰⁶ ≈ 1.2·10⁻³²) from fp64 operations only, for any lane type
// T whose + − × ÷, sqrt and fused multiply-add are IEEE's (a scalar double on the CPU or GPU, a
// SIMD vector of doubles). The deep zoom of the divergence map (docs/guide/deep-zoom.md) carries
// its whole state in them.
//
// The algorithms and their error bounds (u = 2⁻⁵³) are those of
//   M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous error bounds for basic building
//   blocks of double-word arithmetic", ACM Trans. Math. Softw. 44(2), 15 (2017):
//     sum        AccurateDWPlusDW (Algorithm 6)   relative error ≤ 3u²/(1 − 4u)
//     product    DWTimesDW3 (Algorithm 12, FMA)   ≤ 4u²
//     quotient   DWDivDW3 (Algorithm 17)          ≤ 9.8u²
// and the square root is one Newton step on the fp64 root (Karp & Markstein, ACM TOMS 23(4),
// 1997), as the QD library forms it: √x ≈ s + (x − s²)/(2s), s = √hi, with x − s² exact to
// double-double. Every operation is a fixed sequence of correctly rounded fp64 operations, so
// the bits are the same on every machine, vector width and backend (builds keep -ffp-contract=off
// and --fmad=false: the fused multiply-adds are the written ones).
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// The spacing of double-double values near 1, as std::numeric_limits<double>::epsilon() is
// fp64's: a sum hi + lo holds 2 × 53 bits, and 2⁻¹⁰⁴ leaves a bit for the gap between the parts.
inline constexpr double kDoubleDoubleEpsilon = 0x1p-104;

namespace double_word {

// s + e = a + b exactly (Knuth's TwoSum, six operations, any a and b).
template <class T>
ORRERY_HD void two_sum(const T& a, const T& b, T& s, T& e) {
  s = a + b;
  const T a1 = s - b;
  const T b1 = s - a1;
  e = (a - a1) + (b - b1);
}

// s + e = a + b exactly when the exponent of a is at least b's (Dekker's Fast2Sum).
template <class T>
ORRERY_HD void fast_two_sum(const T& a, const T& b, T& s, T& e) {
  s = a + b;
  e = b - (s - a);
}

// p + e = a·b exactly (the fused multiply-add gives the product's rounding error).
template <class T>
ORRERY_HD void two_prod(const T& a, const T& b, T& p, T& e) {
  p = a * b;
  e = mul_add(a, b, -p);
}

}  // namespace double_word

template <class T>
struct DoubleDouble {
  T hi, lo;

  DoubleDouble() = default;
  ORRERY_HD constexpr DoubleDouble(const T& high, const T& low) : hi(high), lo(low) {}
  // An fp64 value (or an integer), exact: every lane gets it.
  ORRERY_HD constexpr DoubleDouble(double x) : hi(T(x)), lo(T(0.0)) {}
  ORRERY_HD constexpr DoubleDouble(int x) : hi(T(static_cast<double>(x))), lo(T(0.0)) {}
  // A scalar double-double copied to every lane of a SIMD one.
  template <class U>
    requires(!std::is_same_v<U, T>)
  ORRERY_HD explicit DoubleDouble(const DoubleDouble<U>& x) : hi(T(x.hi)), lo(T(x.lo)) {}

  ORRERY_HD DoubleDouble& operator+=(const DoubleDouble& o) { return *this = *this + o; }
  ORRERY_HD DoubleDouble& operator-=(const DoubleDouble& o) { return *this = *this - o; }
  ORRERY_HD DoubleDouble& operator*=(const DoubleDouble& o) { return *this = *this * o; }

  ORRERY_HD friend DoubleDouble operator-(const DoubleDouble& x) { return {-x.hi, -x.lo}; }

  ORRERY_HD friend DoubleDouble operator+(const DoubleDouble& x, const DoubleDouble& y) {
    using namespace double_word;
    T sh, sl, th, tl, vh, vl, zh, zl;
    two_sum(x.hi, y.hi, sh, sl);
    two_sum(x.lo, y.lo, th, tl);
    fast_two_sum(sh, T(sl + th), vh, vl);
    fast_two_sum(vh, T(tl + vl), zh, zl);
    return {zh, zl};
  }
  ORRERY_HD friend DoubleDouble operator-(const DoubleDouble& x, const DoubleDouble& y) {
    return x + -y;
  }

  ORRERY_HD friend DoubleDouble operator*(const DoubleDouble& x, const DoubleDouble& y) {
    using namespace double_word;
    T ch, cl1, zh, zl;
    two_prod(x.hi, y.hi, ch, cl1);
    const T tl1 = mul_add(x.hi, y.lo, T(x.lo * y.lo));
    const T cl2 = mul_add(x.lo, y.hi, tl1);
    fast_two_sum(ch, T(cl1 + cl2), zh, zl);
    return {zh, zl};
  }

  ORRERY_HD friend DoubleDouble operator/(const DoubleDouble& x, const DoubleDouble& y) {
    using namespace double_word;
    const T th = x.hi / y.hi;
    // r = y·th (DWTimesFP3), then the remainder x − r formed to double-double accuracy.
    T rh, rl, ch, cl1, ph, pl, zh, zl;
    two_prod(y.hi, th, ch, cl1);
    fast_two_sum(ch, mul_add(y.lo, th, cl1), rh, rl);
    two_sum(x.hi, T(-rh), ph, pl);
    const T delta = ph + ((pl - rl) + x.lo);
    fast_two_sum(th, T(delta / y.hi), zh, zl);
    return {zh, zl};
  }
};

// Lanes of a SIMD double-double whose value is ≤ y's (NaN compares false, as for fp64).
template <class T>
ORRERY_HD auto less_equal(const DoubleDouble<T>& x, const DoubleDouble<T>& y) {
  return (x.hi < y.hi) | ((x.hi == y.hi) & (x.lo <= y.lo));
}

template <class T>
struct LaneMath<DoubleDouble<T>> {
  using D = DoubleDouble<T>;
  // a·b + c: a product and a sum, each of double-double accuracy (no single rounding exists).
  ORRERY_HD static D mul_add(const D& a, const D& b, const D& c) { return a * b + c; }
  ORRERY_HD static D sqrt(const D& x) {
    using namespace double_word;
    const T s = orrery::sqrt(x.hi);
    T ph, pl, zh, zl;
    two_prod(s, s, ph, pl);
    const T r = ((x.hi - ph) - pl) + x.lo;
    // √0 = 0 (the correction would be 0/0); a negative or NaN argument keeps the NaN of √hi.
    const T c = lane_select(s == T(0.0), T(0.0), T(r / (s + s)));
    fast_two_sum(s, c, zh, zl);
    return {zh, zl};
  }
  template <class M>
  ORRERY_HD static D select(const M& take_first, const D& first, const D& second) {
    return {lane_select(take_first, first.hi, second.hi), lane_select(take_first, first.lo, second.lo)};
  }
};

template <class T>
struct LaneScalar<DoubleDouble<T>> {
  using type = DoubleDouble<lane_scalar_t<T>>;
};

}  // namespace orrery
