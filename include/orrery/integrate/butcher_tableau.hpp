// SPDX-License-Identifier: MIT
// Explicit Runge–Kutta methods as Butcher tableaus (Hairer, Nørsett & Wanner, "Solving Ordinary
// Differential Equations I", §II.1):
//
//   k_i     = f(t + c_i h, y + h Σ_{j<i} a_ij k_j),   i = 1..s
//   y_{n+1} = y_n + h Σ_i b_i k_i
//
// A tableau is a type with constexpr coefficients, so one table serves the register stepper (small
// systems in registers, host and device) and the array stepper (large systems) alike.
#pragma once

#include "orrery/core/hd.hpp"

namespace orrery {

// Explicit (forward) Euler, order 1: y_{n+1} = y_n + h f(y_n). For x'' = a(x) it reads
// v ← v + h·a(x), x ← x + h·v_old: the integrator of the published divergence maps.
struct ExplicitEuler {
  static constexpr const char* name = "euler";
  static constexpr const char* description = "explicit (forward) Euler, 1 stage";
  static constexpr int order = 1;
  static constexpr int stages = 1;
  ORRERY_HD static constexpr double a(int, int) { return 0.0; }
  ORRERY_HD static constexpr double b(int) { return 1.0; }
  ORRERY_HD static constexpr double c(int) { return 0.0; }
};

}  // namespace orrery
