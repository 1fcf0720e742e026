// SPDX-License-Identifier: MIT
// One explicit Runge–Kutta step of a second-order system x'' = a(x) held in registers (a small
// system integrated by one thread or one SIMD lane). Written as the first-order system
// y = (x, v), f(y) = (v, a(x)):
//
//   X_i = x + h Σ_{j<i} a_ij V_j,   V_i = v + h Σ_{j<i} a_ij A_j,   A_i = a(X_i)
//   x  ← x + h Σ_i b_i V_i,        v  ← v + h Σ_i b_i A_i
//
// The tableau's loops are unrolled at compile time. Each sum y + h Σ c_j K_j is evaluated as
// s = c_first·K_first (K itself when the coefficient is 1), s ← fma(c_j, K_j, s) for the other
// nonzero coefficients, then y ← fma(h, s, y) (fma: one rounding). That order is part of the
// contract every backend shares, so explicit Euler is exactly v ← fma(h, a, v),
// x ← fma(h, v_old, x). The coefficients are the table's, rounded once to the lane's precision
// (runge_kutta/coefficient.hpp).
#pragma once

#include "orrery/core/static_for.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/body_state.hpp"
#include "orrery/integrate/runge_kutta/coefficient.hpp"

namespace orrery {

namespace detail {

// Row `Row` of the tableau's a matrix, or its b weights when Row < 0.
template <class Tableau, int Row>
struct TableauRow {
  ORRERY_HD static constexpr RkCoefficient coefficient(int j) {
    return Row < 0 ? as_coefficient(Tableau::b(j)) : as_coefficient(Tableau::a(Row, j));
  }
  ORRERY_HD static constexpr double at(int j) { return coefficient(j).value; }
  ORRERY_HD static constexpr int first_nonzero(int count) {
    for (int j = 0; j < count; ++j)
      if (at(j) != 0.0) return j;
    return -1;
  }
};

// Coefficient J of a row in the lane's scalar type: a constant of the code for float and
// double; for float128 rounded from the table's full precision once, on first use.
template <class Scalar, class Coef, int J>
struct LaneCoefficient {
  ORRERY_HD static constexpr Scalar get() { return static_cast<Scalar>(Coef::at(J)); }
};
#if !defined(__CUDACC__)
template <class Coef, int J>
struct LaneCoefficient<float128, Coef, J> {
  static float128 get() {
    static const float128 value = coefficient_as<float128>(Coef::coefficient(J));
    return value;
  }
};
#endif

// y + h Σ_{j<Count} c_j K[j][n] with c_j = Coef::at(j), in the order described above.
template <class Coef, int Count, class T, int S, int N>
ORRERY_HD Vec3<T> rk_combine(const Vec3<T>& y, const T& h, const Vec3<T> (&K)[S][N], int n) {
  constexpr int first = Coef::first_nonzero(Count);
  if constexpr (first < 0) {
    return y;
  } else {
    Vec3<T> sum;
    static_for<first, Count>([&](auto j) {
      constexpr int J = decltype(j)::value;
      constexpr double c = Coef::at(J);
      using Lane = LaneCoefficient<lane_scalar_t<T>, Coef, J>;
      if constexpr (J == first) {
        if constexpr (c == 1.0)
          sum = K[j][n];
        else
          sum = T(Lane::get()) * K[j][n];
      } else if constexpr (c != 0.0) {
        sum = mul_add(T(Lane::get()), K[j][n], sum);
      }
    });
    return mul_add(h, sum, y);
  }
}

}  // namespace detail

// Advances `s` by one step h. `accel(const Vec3<T> (&x)[N], Vec3<T> (&a)[N])` fills the
// accelerations.
template <class Tableau, class T, int N, class Accel>
ORRERY_HD void rk_step(BodyState<T, N>& s, const T& h, const Accel& accel) {
  constexpr int S = Tableau::stages;
  Vec3<T> V[S][N];
  Vec3<T> A[S][N];
  static_for<0, S>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Row = detail::TableauRow<Tableau, I>;
    Vec3<T> X[N];
    for (int n = 0; n < N; ++n) {
      X[n] = detail::rk_combine<Row, I>(s.x[n], h, V, n);
      V[I][n] = detail::rk_combine<Row, I>(s.v[n], h, A, n);
    }
    accel(X, A[I]);
  });
  using Weights = detail::TableauRow<Tableau, -1>;
  for (int n = 0; n < N; ++n) {
    s.x[n] = detail::rk_combine<Weights, S>(s.x[n], h, V, n);
    s.v[n] = detail::rk_combine<Weights, S>(s.v[n], h, A, n);
  }
}

}  // namespace orrery
