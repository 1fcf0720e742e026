// SPDX-License-Identifier: MIT
// Dual numbers (core/dual.hpp) whose value is a lane value T (fp64) and whose K derivatives are
// double-double (core/double_double.hpp): the value keeps the bits and operations of Dual<T, K>'s
// (so of the plain run), and the derivative of that fp64 code is carried to about 10⁻³² — each
// product of a value and a derivative (DWTimesFP3) and each sum of derivatives (AccurateDWPlusDW)
// of double-double accuracy — so that deviation vectors closer than fp64's ulp stay resolved (a
// chaotic orbit's SALI, docs/guide/chaos.md). The rules are Dual's, term for term:
//
//   (a·b)' = a'b + ab',   (a/b)' = (a' − (a/b) b')/b,   √a' = a'/(2√a),   fma(a, b, c)' = a'b + ab' + c'
//
// As an element of a register state: integrate/dual_element.hpp. Its own type, not a parameter
// of Dual: dual.hpp is included by every file of gravity (the fast
// pair factor's derivative), which a change to it would all recompile.
#pragma once

#include "orrery/core/double_double_fp64.hpp"
#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T, int K>
struct DualDD {
  static_assert(K >= 1);
  using W = DoubleDouble<T>;
  T v;     // the value
  W d[K];  // its derivative along each direction

  DualDD() = default;
  // A constant: every derivative 0.
  ORRERY_HD DualDD(const T& value) : v(value) {
    for (int k = 0; k < K; ++k) d[k] = W(T(0.0), T(0.0));
  }
  template <class S>
    requires(std::is_arithmetic_v<S> && !std::is_same_v<S, T>)
  ORRERY_HD explicit DualDD(S value) : DualDD(T(static_cast<lane_scalar_t<T>>(value))) {}
};

namespace dual_dd {
// a·b + c, a a value and b, c derivatives.
template <class T>
ORRERY_HD DoubleDouble<T> mul_add(const T& a, const DoubleDouble<T>& b, const DoubleDouble<T>& c) {
  return double_word::times_fp(b, a) + c;
}
}  // namespace dual_dd

template <class T, int K>
ORRERY_HD DualDD<T, K> operator-(const DualDD<T, K>& a) {
  DualDD<T, K> r;
  r.v = -a.v;
  for (int k = 0; k < K; ++k) r.d[k] = -a.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator+(const DualDD<T, K>& a, const DualDD<T, K>& b) {
  DualDD<T, K> r;
  r.v = a.v + b.v;
  for (int k = 0; k < K; ++k) r.d[k] = a.d[k] + b.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator-(const DualDD<T, K>& a, const DualDD<T, K>& b) {
  DualDD<T, K> r;
  r.v = a.v - b.v;
  for (int k = 0; k < K; ++k) r.d[k] = a.d[k] - b.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator*(const DualDD<T, K>& a, const DualDD<T, K>& b) {
  DualDD<T, K> r;
  r.v = a.v * b.v;
  for (int k = 0; k < K; ++k)
    r.d[k] = dual_dd::mul_add(a.v, b.d[k], double_word::times_fp(a.d[k], b.v));
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator*(const T& a, const DualDD<T, K>& b) {
  DualDD<T, K> r;
  r.v = a * b.v;
  for (int k = 0; k < K; ++k) r.d[k] = double_word::times_fp(b.d[k], a);
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator*(const DualDD<T, K>& a, const T& b) {
  return b * a;
}
template <class T, int K>
ORRERY_HD DualDD<T, K> operator/(const DualDD<T, K>& a, const DualDD<T, K>& b) {
  DualDD<T, K> r;
  r.v = a.v / b.v;
  for (int k = 0; k < K; ++k)
    r.d[k] = double_word::divide_fp(dual_dd::mul_add(T(-r.v), b.d[k], a.d[k]), b.v);
  return r;
}
template <class T, int K>
ORRERY_HD DualDD<T, K>& operator+=(DualDD<T, K>& a, const DualDD<T, K>& b) {
  return a = a + b;
}
template <class T, int K>
ORRERY_HD DualDD<T, K>& operator-=(DualDD<T, K>& a, const DualDD<T, K>& b) {
  return a = a - b;
}
template <class T, int K>
ORRERY_HD DualDD<T, K>& operator*=(DualDD<T, K>& a, const DualDD<T, K>& b) {
  return a = a * b;
}

// a·b + c for a plain a (a step size times a coefficient).
template <class T, int K>
ORRERY_HD DualDD<T, K> mul_add(const T& a, const DualDD<T, K>& b, const DualDD<T, K>& c) {
  DualDD<T, K> r;
  r.v = mul_add(a, b.v, c.v);
  for (int k = 0; k < K; ++k) r.d[k] = dual_dd::mul_add(a, b.d[k], c.d[k]);
  return r;
}

template <class T, int K>
struct LaneMath<DualDD<T, K>> {
  using D = DualDD<T, K>;
  ORRERY_HD static D mul_add(const D& a, const D& b, const D& c) {
    D r;
    r.v = orrery::mul_add(a.v, b.v, c.v);
    for (int k = 0; k < K; ++k)
      r.d[k] = dual_dd::mul_add(a.v, b.d[k], dual_dd::mul_add(b.v, a.d[k], c.d[k]));
    return r;
  }
  ORRERY_HD static D sqrt(const D& a) {
    D r;
    r.v = orrery::sqrt(a.v);
    const T half_inverse = T(static_cast<lane_scalar_t<T>>(0.5)) / r.v;
    for (int k = 0; k < K; ++k) r.d[k] = double_word::times_fp(a.d[k], half_inverse);
    return r;
  }
  template <class Mask>
  ORRERY_HD static D select(const Mask& take_first, const D& first, const D& second) {
    D r;
    r.v = lane_select(take_first, first.v, second.v);
    for (int k = 0; k < K; ++k) r.d[k] = lane_select(take_first, first.d[k], second.d[k]);
    return r;
  }
};

template <class T, int K>
struct LaneScalar<DualDD<T, K>> {
  using type = lane_scalar_t<T>;
};

}  // namespace orrery
