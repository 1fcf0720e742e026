// SPDX-License-Identifier: MIT
// One explicit Runge–Kutta step of a small system held in registers (one trajectory per thread or
// SIMD lane; integrate/phase_state.hpp). A first-order system y' = f(y):
//
//   Y_i = y + h Σ_{j<i} a_ij K_j,   K_i = f(Y_i),   y ← y + h Σ_i b_i K_i
//
// and a second-order one x'' = a(x), written as the first-order system y = (x, v), f = (v, a(x)):
//
//   X_i = x + h Σ_{j<i} a_ij V_j,   V_i = v + h Σ_{j<i} a_ij A_j,   A_i = a(X_i)
//   x  ← x + h Σ_i b_i V_i,        v  ← v + h Σ_i b_i A_i
//
// The tableau's loops are unrolled at compile time. Each sum y + h Σ c_j K_j is rounded as the
// Arithmetic says (integrate/step_arithmetic.hpp); with SumThenScale, the contract every backend
// shares, explicit Euler is exactly v ← fma(h, a, v), x ← fma(h, v_old, x). The coefficients are
// the table's, rounded once to the lane's precision (runge_kutta/coefficient.hpp).
#pragma once

#include <type_traits>

#include "orrery/core/static_for.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/body_state.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/runge_kutta/coefficient.hpp"
#include "orrery/integrate/step_arithmetic.hpp"

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

// y + h Σ_{j<Count} c_j K[j][n] with c_j = Coef::at(j), rounded as Arithmetic says.
template <class Coef, int Count, class Arithmetic = SumThenScale, class E, int S, int N>
ORRERY_HD E rk_combine(const E& y, const element_lane_t<E>& h, const E (&K)[S][N], int n) {
  using T = element_lane_t<E>;
  constexpr int first = Coef::first_nonzero(Count);
  if constexpr (first < 0) {
    return y;
  } else if constexpr (std::is_same_v<Arithmetic, ScaleEachTerm>) {
    E sum = y;
    static_for<first, Count>([&](auto j) {
      constexpr int J = decltype(j)::value;
      constexpr double c = Coef::at(J);
      using Lane = LaneCoefficient<lane_scalar_t<T>, Coef, J>;
      if constexpr (c == 1.0)
        sum = mul_add(h, K[j][n], sum);
      else if constexpr (c != 0.0)
        sum = mul_add(h * T(Lane::get()), K[j][n], sum);
    });
    return sum;
  } else {
    E sum;
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

// Advances a second-order state by one step h. `accel(const E (&x)[N], E (&a)[N])` fills the
// accelerations.
template <class Tableau, class Arithmetic = SumThenScale, class E, int N, class Accel>
ORRERY_HD void rk_step(PhaseState<E, N>& s, const element_lane_t<E>& h, const Accel& accel) {
  constexpr int S = Tableau::stages;
  E V[S][N];
  E A[S][N];
  static_for<0, S>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Row = detail::TableauRow<Tableau, I>;
    E X[N];
    for (int n = 0; n < N; ++n) {
      X[n] = detail::rk_combine<Row, I, Arithmetic>(s.x[n], h, V, n);
      V[I][n] = detail::rk_combine<Row, I, Arithmetic>(s.v[n], h, A, n);
    }
    accel(X, A[I]);
  });
  using Weights = detail::TableauRow<Tableau, -1>;
  for (int n = 0; n < N; ++n) {
    s.x[n] = detail::rk_combine<Weights, S, Arithmetic>(s.x[n], h, V, n);
    s.v[n] = detail::rk_combine<Weights, S, Arithmetic>(s.v[n], h, A, n);
  }
}

// Advances a first-order state by one step h. `f(const E (&y)[D], E (&dydt)[D])` fills the
// derivatives.
template <class Tableau, class Arithmetic = SumThenScale, class E, int D, class F>
ORRERY_HD void rk_step(FirstOrderState<E, D>& s, const element_lane_t<E>& h, const F& f) {
  constexpr int S = Tableau::stages;
  E K[S][D];
  static_for<0, S>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Row = detail::TableauRow<Tableau, I>;
    E Y[D];
    for (int d = 0; d < D; ++d) Y[d] = detail::rk_combine<Row, I, Arithmetic>(s.y[d], h, K, d);
    f(Y, K[I]);
  });
  using Weights = detail::TableauRow<Tableau, -1>;
  for (int d = 0; d < D; ++d)
    s.y[d] = detail::rk_combine<Weights, S, Arithmetic>(s.y[d], h, K, d);
}

}  // namespace orrery
