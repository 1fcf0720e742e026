// SPDX-License-Identifier: MIT
// Explicit Adams–Bashforth methods (Hairer, Nørsett & Wanner, "Solving Ordinary Differential
// Equations I", §III.1), for the first-order system y = (x, v), f(y) = (v, a(x)):
//
//   y_{n+1} = y_n + h Σ_{j=0}^{k−1} β_j f_{n−j}
//
// so x_{n+1} = x_n + h Σ β_j v_{n−j} and v_{n+1} = v_n + h Σ β_j a(x_{n−j}): one force evaluation
// per step, the history of k − 1 earlier velocities and accelerations carried along. A k-step
// method needs a starter for its first steps; these tables take `starter_steps` explicit Euler
// steps, as the published Adams–Bashforth divergence maps do (blbadger, "Three body problem",
// adams_bashforth_divergence.py: Euler for steps 0–3, then Adams–Bashforth), so the global error
// is that of Euler's first steps plus order k after them.
//
// The weights are doubles; those of AB4 are not dyadic (55/24, ...) and carry one rounding each.
#pragma once

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// Two-step Adams–Bashforth: β = (3/2, −1/2). (The published map's script has 2.1 and −1.9 in
// place of 3 and −1, which is not a consistent two-step method of order 2; orrery uses the
// textbook weights.)
struct AdamsBashforth2 {
  static constexpr const char* name = "ab2";
  static constexpr IntegratorFamily family = IntegratorFamily::multistep;
  static constexpr const char* description =
      "Adams–Bashforth 2-step, started by 4 explicit Euler steps (as the published maps)";
  static constexpr int order = 2;
  static constexpr int steps = 2;
  static constexpr int starter_steps = 4;
  ORRERY_HD static constexpr double beta(int j) { return j == 0 ? 1.5 : -0.5; }
};

// Four-step Adams–Bashforth: β = (55, −59, 37, −9)/24.
struct AdamsBashforth4 {
  static constexpr const char* name = "ab4";
  static constexpr IntegratorFamily family = IntegratorFamily::multistep;
  static constexpr const char* description =
      "Adams–Bashforth 4-step, started by 4 explicit Euler steps (as the published maps)";
  static constexpr int order = 4;
  static constexpr int steps = 4;
  static constexpr int starter_steps = 4;
  ORRERY_HD static constexpr double beta(int j) {
    return j == 0 ? 55.0 / 24.0 : j == 1 ? -59.0 / 24.0 : j == 2 ? 37.0 / 24.0 : -9.0 / 24.0;
  }
};

}  // namespace orrery
