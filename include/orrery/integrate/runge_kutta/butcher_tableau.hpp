// SPDX-License-Identifier: MIT
// Explicit Runge–Kutta methods as Butcher tableaus (Hairer, Nørsett & Wanner, "Solving Ordinary
// Differential Equations I", §II.1):
//
//   k_i     = f(t + c_i h, y + h Σ_{j<i} a_ij k_j),   i = 1..s
//   y_{n+1} = y_n + h Σ_i b_i k_i
//
// A tableau is a type with constexpr coefficients, so one table serves the register stepper (small
// systems in registers, host and device) and the array stepper (large systems) alike. A
// coefficient is a double where the double is exact (0, 1/2) and otherwise an RkCoefficient
// (runge_kutta/coefficient.hpp): the exact fraction or the published digits, which every
// precision rounds once, so a float128 run has the method itself, not its rounding to double.
#pragma once

#include <concepts>

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/runge_kutta/coefficient.hpp"

namespace orrery {

// Explicit (forward) Euler, order 1: y_{n+1} = y_n + h f(y_n). For x'' = a(x) it reads
// v ← v + h·a(x), x ← x + h·v_old: the integrator of the published divergence maps.
struct ExplicitEuler {
  static constexpr const char* name = "euler";
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr const char* description = "explicit (forward) Euler, 1 stage";
  static constexpr int order = 1;
  static constexpr int stages = 1;
  ORRERY_HD static constexpr double a(int, int) { return 0.0; }
  ORRERY_HD static constexpr double b(int) { return 1.0; }
  ORRERY_HD static constexpr double c(int) { return 0.0; }
};

// The explicit midpoint rule, order 2 (Runge 1895; Hairer–Nørsett–Wanner §II.1): half an Euler
// step, then the whole step with the slope at the midpoint. The scheme of the galaxy-collision
// course code.
//
//   0   |
//   1/2 | 1/2
//   ----+---------
//       | 0    1
struct Midpoint {
  static constexpr const char* name = "midpoint";
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr const char* description = "explicit midpoint rule (RK2), 2 stages";
  static constexpr int order = 2;
  static constexpr int stages = 2;
  ORRERY_HD static constexpr double a(int i, int j) { return i == 1 && j == 0 ? 0.5 : 0.0; }
  ORRERY_HD static constexpr double b(int i) { return i == 1 ? 1.0 : 0.0; }
  ORRERY_HD static constexpr double c(int i) { return i == 1 ? 0.5 : 0.0; }
};

// Kutta's third-order method (Kutta 1901; Hairer–Nørsett–Wanner Table II.1.1, right): the
// starter of ab3 (multistep/adams_methods.hpp).
//
//   0   |
//   1/2 | 1/2
//   1   | −1   2
//   ----+--------------
//       | 1/6  2/3  1/6
struct Kutta3 {
  static constexpr const char* name = "kutta3";
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr const char* description = "Kutta's third-order Runge–Kutta, 3 stages";
  static constexpr int order = 3;
  static constexpr int stages = 3;
  ORRERY_HD static constexpr double a(int i, int j) {
    return i == 1 && j == 0 ? 0.5 : i == 2 ? (j == 0 ? -1.0 : j == 1 ? 2.0 : 0.0) : 0.0;
  }
  ORRERY_HD static constexpr double b(int i) { return i == 1 ? 2.0 / 3.0 : 1.0 / 6.0; }
  ORRERY_HD static constexpr double c(int i) { return i == 0 ? 0.0 : i == 1 ? 0.5 : 1.0; }
};

// The classic Runge–Kutta method, order 4 (Kutta 1901; Hairer–Nørsett–Wanner Table II.1.2).
//
//   0   |
//   1/2 | 1/2
//   1/2 | 0    1/2
//   1   | 0    0    1
//   ----+-------------------
//       | 1/6  1/3  1/3  1/6
struct ClassicRK4 {
  static constexpr const char* name = "rk4";
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr const char* description = "classic Runge–Kutta, 4 stages";
  static constexpr int order = 4;
  static constexpr int stages = 4;
  ORRERY_HD static constexpr double a(int i, int j) {
    return (i == 1 && j == 0) || (i == 2 && j == 1) ? 0.5 : i == 3 && j == 2 ? 1.0 : 0.0;
  }
  ORRERY_HD static constexpr RkCoefficient b(int i) {
    return i == 0 || i == 3 ? fraction(1, 6) : fraction(1, 3);
  }
  ORRERY_HD static constexpr double c(int i) { return i == 0 ? 0.0 : i == 3 ? 1.0 : 0.5; }
};

// A type is an explicit Runge–Kutta tableau when it has stages and coefficients a, b (doubles or
// RkCoefficients).
template <class T>
concept ButcherTableau = requires {
  { T::stages } -> std::convertible_to<int>;
  as_coefficient(T::a(0, 0));
  as_coefficient(T::b(0));
};

}  // namespace orrery
