// SPDX-License-Identifier: MIT
// The Adams methods of `orrery sim`: Adams–Bashforth of k = 1 … 5 steps and the
// Adams–Bashforth–Moulton predictor–corrector of order 4 (Hairer, Nørsett & Wanner, "Solving
// Ordinary Differential Equations I", §III.1; weights in multistep/adams_weights.hpp), for
// y = (x, v), f(y) = (v, a(x)):
//
//   AB k:      y_{n+1} = y_n + h Σ_{j=0}^{k−1} β_j f_{n−j}                      order k
//   ABM4 PECE: P  y* = y_n + h Σ_{j=0}^{3} β_j f_{n−j}                          (AB4)
//              E  f* = f(y*)
//              C  y_{n+1} = y_n + h (β*_0 f* + β*_1 f_n + β*_2 f_{n−1} + β*_3 f_{n−2})   (AM4)
//              E  f_{n+1} = f(y_{n+1})   (the next step's f_n)                  order 4
//
// A k-step method needs the k − 1 values before f_n. Each table names a one-step `Starter` of
// its own order (a Butcher tableau of runge_kutta/), which takes the first k − 1 steps and fills
// the history as it goes: its local errors O(h^{k+1}) on a fixed number of steps keep the global
// error O(h^k) (HNW §III.2), where an Euler starter (the published maps',
// multistep/adams_bashforth.hpp) would cap it at O(h²). ab1 is explicit Euler and needs none.
// These tables have an array stepper only (multistep/array_stepper.hpp).
#pragma once

#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/multistep/adams_weights.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"

namespace orrery {

// What the tables below share: k steps, order k, the AB weights and the starter.
template <int K, ButcherTableau StarterTableau>
struct StartedAdamsBashforth {
  static constexpr IntegratorFamily family = IntegratorFamily::multistep;
  static constexpr int order = K;
  static constexpr int steps = K;
  using Starter = StarterTableau;
  static_assert(K == 1 || Starter::order == K, "a starter of the method's own order");
  static constexpr const double (&predictor)[K] = AdamsBashforthWeights<K>::beta;
};

struct AdamsBashforth1 : StartedAdamsBashforth<1, ExplicitEuler> {
  static constexpr const char* name = "ab1";
  static constexpr const char* description = "Adams–Bashforth 1-step (explicit Euler)";
};

struct AdamsBashforth2 : StartedAdamsBashforth<2, Midpoint> {
  static constexpr const char* name = "ab2";
  static constexpr const char* description = "Adams–Bashforth 2-step, started by midpoint";
};

struct AdamsBashforth3 : StartedAdamsBashforth<3, Kutta3> {
  static constexpr const char* name = "ab3";
  static constexpr const char* description = "Adams–Bashforth 3-step, started by kutta3";
};

struct AdamsBashforth4 : StartedAdamsBashforth<4, ClassicRK4> {
  static constexpr const char* name = "ab4";
  static constexpr const char* description = "Adams–Bashforth 4-step, started by rk4";
};

// Cash–Karp's fifth-order weights at a fixed step: 6 stages to dopri5's 7.
struct AdamsBashforth5 : StartedAdamsBashforth<5, CashKarp> {
  static constexpr const char* name = "ab5";
  static constexpr const char* description = "Adams–Bashforth 5-step, started by cash-karp";
};

struct AdamsBashforthMoulton4 : StartedAdamsBashforth<4, ClassicRK4> {
  static constexpr const char* name = "abm4";
  static constexpr const char* description =
      "Adams–Bashforth–Moulton 4 (AB4 predictor, AM4 corrector, PECE), started by rk4";
  static constexpr const double (&corrector)[4] = AdamsMoulton4Weights::beta;
};

// A table of this file; with a corrector, a predictor–corrector.
template <class T>
concept StartedAdamsMethod = requires {
  typename T::Starter;
  { T::steps } -> std::convertible_to<int>;
  T::predictor[0];
};
template <class T>
concept AdamsPredictorCorrector = StartedAdamsMethod<T> && requires { T::corrector[0]; };

// Force evaluations per step once the history is full: f_n, and f* for a corrector.
template <StartedAdamsMethod T>
constexpr int adams_force_evaluations() {
  return AdamsPredictorCorrector<T> ? 2 : 1;
}

}  // namespace orrery
