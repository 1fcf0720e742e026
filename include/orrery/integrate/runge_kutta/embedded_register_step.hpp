// SPDX-License-Identifier: MIT
// One step of an embedded Runge–Kutta pair (runge_kutta/embedded_pairs.hpp) of a small system held
// in registers, for a step-size control (runge_kutta/step_control.hpp): the stages as rk_step
// forms them (runge_kutta/register_stepper.hpp: the same combinations in the same order, so the
// candidate has rk_step's bits), the candidate y₁ = y + h Σ b_i k_i, and the error estimate
//
//   e = h Σ_i (b_i − b̂_i) k_i        (Hairer, Nørsett & Wanner, "Solving ODEs I", §II.4)
//
// word for word, leaving the state as it was.
//
// A pair whose last stage is taken at its candidate (a_{s−1,j} = b_j for every j and b_{s−1} = 0:
// "first same as last", tsit5 and dopri5) evaluates the field at y₁ as that stage; the next step,
// from y₁ once accepted, may start from it instead of evaluating it again (`FieldAtState`): the
// same bits, since stage s−1 is formed by the same combination as y₁, one field evaluation fewer.
#pragma once

#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery {

namespace detail {

// The error weights b_i − b̂_i of an embedded pair (its published error weights where it is
// given that way), formed in double as coefficient_difference does for float and double runs.
template <class Tableau>
struct ErrorRow {
  ORRERY_HD static constexpr double at(int j) {
    if constexpr (requires { Tableau::error_weight(0); })
      return as_coefficient(Tableau::error_weight(j)).value;
    else
      return as_coefficient(Tableau::b(j)).value - as_coefficient(Tableau::b_embedded(j)).value;
  }
  ORRERY_HD static constexpr RkCoefficient coefficient(int j) { return as_coefficient(at(j)); }
  ORRERY_HD static constexpr int first_nonzero(int count) {
    for (int j = 0; j < count; ++j)
      if (at(j) != 0.0) return j;
    return -1;
  }
};

// The stages of a step of a second-order state: V_i and A_i = a(X_i); A_0 = a(x) from `first`
// when given.
template <class Tableau, class Arithmetic, class E, int N, class Accel>
ORRERY_HD void rk_stages(const PhaseState<E, N>& s, const element_lane_t<E>& h, const Accel& accel,
                         E (&V)[Tableau::stages][N], E (&A)[Tableau::stages][N],
                         const E (*first)[N] = nullptr) {
  static_for<0, Tableau::stages>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Row = TableauRow<Tableau, I>;
    E X[N];
    for (int n = 0; n < N; ++n) {
      X[n] = rk_combine<Row, I, Arithmetic>(s.x[n], h, V, n);
      V[I][n] = rk_combine<Row, I, Arithmetic>(s.v[n], h, A, n);
    }
    if (I == 0 && first)
      for (int n = 0; n < N; ++n) A[0][n] = (*first)[n];
    else
      accel(X, A[I]);
  });
}

// The stages of a step of a first-order state: K_i = f(Y_i); K_0 = f(y) from `first` when given.
template <class Tableau, class Arithmetic, class E, int D, class F>
ORRERY_HD void rk_stages(const FirstOrderState<E, D>& s, const element_lane_t<E>& h, const F& f,
                         E (&K)[Tableau::stages][D], const E (*first)[D] = nullptr) {
  static_for<0, Tableau::stages>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Row = TableauRow<Tableau, I>;
    E Y[D];
    for (int d = 0; d < D; ++d) Y[d] = rk_combine<Row, I, Arithmetic>(s.y[d], h, K, d);
    if (I == 0 && first)
      for (int d = 0; d < D; ++d) K[0][d] = (*first)[d];
    else
      f(Y, K[I]);
  });
}

// Whether the pair's last stage is taken at its candidate: a_{s−1,j} = b_j for j < s−1 (the same
// coefficients, so the same combination) and b_{s−1} = 0.
template <class Tableau>
ORRERY_HD constexpr bool last_stage_at_candidate() {
  constexpr int S = Tableau::stages;
  bool same = TableauRow<Tableau, -1>::at(S - 1) == 0.0;
  for (int j = 0; same && j < S - 1; ++j)
    same = TableauRow<Tableau, S - 1>::at(j) == TableauRow<Tableau, -1>::at(j);
  return same;
}

}  // namespace detail

// The field at a state, a(x) or f(y), as a first-same-as-last pair carries it from one step to
// the next (`carried`: whether the pair is one).
template <class Tableau, class State>
struct FieldAtState;
template <class Tableau, class E, int N>
struct FieldAtState<Tableau, PhaseState<E, N>> {
  static constexpr bool carried = detail::last_stage_at_candidate<Tableau>();
  E value[N];
  template <class Accel>
  ORRERY_HD void evaluate(const PhaseState<E, N>& s, const Accel& accel) {
    accel(s.x, value);
  }
};
template <class Tableau, class E, int D>
struct FieldAtState<Tableau, FirstOrderState<E, D>> {
  static constexpr bool carried = detail::last_stage_at_candidate<Tableau>();
  E value[D];
  template <class F>
  ORRERY_HD void evaluate(const FirstOrderState<E, D>& s, const F& f) {
    f(s.y, value);
  }
};

// One step of an embedded pair (runge_kutta/embedded_pairs.hpp) from s, which it leaves as it is:
// the candidate `next` (the weights b, the bits rk_step gives) and the error estimate
// `error` = h Σ (b_i − b̂_i) k_i, word for word, for a step-size control
// (runge_kutta/step_control.hpp) to accept or reject. For a first-same-as-last pair, `at_s` may
// give the field at s (then not evaluated again) and `at_next` receives the field at `next`.
template <class Tableau, class Arithmetic = SumThenScale, class E, int N, class Accel>
ORRERY_HD void rk_embedded_step(const PhaseState<E, N>& s, PhaseState<E, N>& next,
                                PhaseState<E, N>& error, const element_lane_t<E>& h,
                                const Accel& accel, const E (*at_s)[N] = nullptr,
                                E (*at_next)[N] = nullptr) {
  constexpr int S = Tableau::stages;
  E V[S][N];
  E A[S][N];
  detail::rk_stages<Tableau, Arithmetic>(s, h, accel, V, A, at_s);
  if constexpr (detail::last_stage_at_candidate<Tableau>())
    if (at_next)
      for (int n = 0; n < N; ++n) (*at_next)[n] = A[S - 1][n];
  using Weights = detail::TableauRow<Tableau, -1>;
  using Errors = detail::ErrorRow<Tableau>;
  for (int n = 0; n < N; ++n) {
    next.x[n] = detail::rk_combine<Weights, S, Arithmetic>(s.x[n], h, V, n);
    next.v[n] = detail::rk_combine<Weights, S, Arithmetic>(s.v[n], h, A, n);
    error.x[n] = detail::rk_combine<Errors, S, Arithmetic>(E{}, h, V, n);
    error.v[n] = detail::rk_combine<Errors, S, Arithmetic>(E{}, h, A, n);
  }
}

template <class Tableau, class Arithmetic = SumThenScale, class E, int D, class F>
ORRERY_HD void rk_embedded_step(const FirstOrderState<E, D>& s, FirstOrderState<E, D>& next,
                                FirstOrderState<E, D>& error, const element_lane_t<E>& h,
                                const F& f, const E (*at_s)[D] = nullptr,
                                E (*at_next)[D] = nullptr) {
  constexpr int S = Tableau::stages;
  E K[S][D];
  detail::rk_stages<Tableau, Arithmetic>(s, h, f, K, at_s);
  if constexpr (detail::last_stage_at_candidate<Tableau>())
    if (at_next)
      for (int d = 0; d < D; ++d) (*at_next)[d] = K[S - 1][d];
  using Weights = detail::TableauRow<Tableau, -1>;
  using Errors = detail::ErrorRow<Tableau>;
  for (int d = 0; d < D; ++d) {
    next.y[d] = detail::rk_combine<Weights, S, Arithmetic>(s.y[d], h, K, d);
    error.y[d] = detail::rk_combine<Errors, S, Arithmetic>(E{}, h, K, d);
  }
}

}  // namespace orrery
