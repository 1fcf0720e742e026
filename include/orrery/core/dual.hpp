// SPDX-License-Identifier: MIT
// Forward-mode dual numbers with K tangent directions, for any lane type T (double, float, a
// std::experimental::simd vector, a CUDA register):
//
//   x = v + Σ_k d_k ε_k,   ε_j ε_k = 0:
//   (a·b)' = a'b + ab',   (a/b)' = (a' − (a/b) b')/b,   √a' = a'/(2√a),   fma(a, b, c)' = a'b + ab' + c'
//
// A code path written for a lane type (an integrator's step, a problem's field) run on Dual<T, K>
// computes its values with the same operations in the same order, so the values keep their bits,
// and beside them the exact derivative of that code (the discrete map it implements, rounding
// aside) along K directions: the tangent map of the integrator's own step, no Jacobian written
// by hand (Griewank & Walther, "Evaluating Derivatives", 2nd ed., SIAM 2008, ch. 3).
//
// A Dual is an element of a register state whose lane type is T (integrate/dual_element.hpp): a
// step size or a coefficient stays a plain T, and a term h·k costs one multiply-add per direction.
// Only + − × ÷, fused multiply-add and square root appear, so the derivative's bits are the same
// on every backend too.
#pragma once

#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T, int K>
struct Dual {
  static_assert(K >= 1);
  T v;     // the value
  T d[K];  // its derivative along each direction

  Dual() = default;
  // A constant: every derivative 0.
  ORRERY_HD Dual(const T& value) : v(value) {
    for (int k = 0; k < K; ++k) d[k] = T(0);
  }
  template <class S>
    requires(std::is_arithmetic_v<S> && !std::is_same_v<S, T>)
  ORRERY_HD explicit Dual(S value) : Dual(T(static_cast<lane_scalar_t<T>>(value))) {}
};

template <class T, int K>
ORRERY_HD Dual<T, K> operator-(const Dual<T, K>& a) {
  Dual<T, K> r;
  r.v = -a.v;
  for (int k = 0; k < K; ++k) r.d[k] = -a.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator+(const Dual<T, K>& a, const Dual<T, K>& b) {
  Dual<T, K> r;
  r.v = a.v + b.v;
  for (int k = 0; k < K; ++k) r.d[k] = a.d[k] + b.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator-(const Dual<T, K>& a, const Dual<T, K>& b) {
  Dual<T, K> r;
  r.v = a.v - b.v;
  for (int k = 0; k < K; ++k) r.d[k] = a.d[k] - b.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator*(const Dual<T, K>& a, const Dual<T, K>& b) {
  Dual<T, K> r;
  r.v = a.v * b.v;
  for (int k = 0; k < K; ++k) r.d[k] = mul_add(a.v, b.d[k], a.d[k] * b.v);
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator*(const T& a, const Dual<T, K>& b) {
  Dual<T, K> r;
  r.v = a * b.v;
  for (int k = 0; k < K; ++k) r.d[k] = a * b.d[k];
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator*(const Dual<T, K>& a, const T& b) {
  return b * a;
}
template <class T, int K>
ORRERY_HD Dual<T, K> operator/(const Dual<T, K>& a, const Dual<T, K>& b) {
  Dual<T, K> r;
  r.v = a.v / b.v;
  for (int k = 0; k < K; ++k) r.d[k] = mul_add(-r.v, b.d[k], a.d[k]) / b.v;
  return r;
}
template <class T, int K>
ORRERY_HD Dual<T, K>& operator+=(Dual<T, K>& a, const Dual<T, K>& b) {
  return a = a + b;
}
template <class T, int K>
ORRERY_HD Dual<T, K>& operator-=(Dual<T, K>& a, const Dual<T, K>& b) {
  return a = a - b;
}
template <class T, int K>
ORRERY_HD Dual<T, K>& operator*=(Dual<T, K>& a, const Dual<T, K>& b) {
  return a = a * b;
}

// a·b + c for a plain a (a step size times a coefficient): one multiply-add per word.
template <class T, int K>
ORRERY_HD Dual<T, K> mul_add(const T& a, const Dual<T, K>& b, const Dual<T, K>& c) {
  Dual<T, K> r;
  r.v = mul_add(a, b.v, c.v);
  for (int k = 0; k < K; ++k) r.d[k] = mul_add(a, b.d[k], c.d[k]);
  return r;
}

template <class T, int K>
struct LaneMath<Dual<T, K>> {
  using D = Dual<T, K>;
  ORRERY_HD static D mul_add(const D& a, const D& b, const D& c) {
    D r;
    r.v = orrery::mul_add(a.v, b.v, c.v);
    for (int k = 0; k < K; ++k)
      r.d[k] = orrery::mul_add(a.v, b.d[k], orrery::mul_add(a.d[k], b.v, c.d[k]));
    return r;
  }
  ORRERY_HD static D sqrt(const D& a) {
    D r;
    r.v = orrery::sqrt(a.v);
    const T half_inverse = T(static_cast<lane_scalar_t<T>>(0.5)) / r.v;
    for (int k = 0; k < K; ++k) r.d[k] = a.d[k] * half_inverse;
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
struct LaneScalar<Dual<T, K>> {
  using type = lane_scalar_t<T>;
};

template <class Scalar, class T, int K>
struct Rebind<Scalar, Dual<T, K>> {
  using type = Dual<rebind_t<Scalar, T>, K>;
};

}  // namespace orrery
