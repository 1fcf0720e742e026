// SPDX-License-Identifier: MIT
// The Adams–Bashforth methods of the published divergence maps (`orrery map --integrator ab2|ab4`),
// for the first-order system y = (x, v), f(y) = (v, a(x)):
//
//   y_{n+1} = y_n + h Σ_{j=0}^{k−1} β_j f_{n−j}       (weights: multistep/adams_weights.hpp)
//
// so x_{n+1} = x_n + h Σ β_j v_{n−j} and v_{n+1} = v_n + h Σ β_j a(x_{n−j}): one force evaluation
// per step, the history of k − 1 earlier velocities and accelerations carried along. A k-step
// method needs a starter for its first steps; these tables take `starter_steps` explicit Euler
// steps, as the published Adams–Bashforth divergence maps do (blbadger, "Three body problem",
// adams_bashforth_divergence.py: Euler for steps 0–3, then Adams–Bashforth), so the global error
// is that of Euler's first steps (order 1 locally, order 2 globally over four steps) plus order k
// after them. `orrery sim`'s ab1 … ab5 (multistep/adams_methods.hpp) have the same weights and a
// starter of their own order instead; only these have a register stepper.
#pragma once

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/multistep/adams_weights.hpp"

namespace orrery {

// Two-step Adams–Bashforth. (The published map's script has 2.1 and −1.9 in place of 3 and −1,
// which is not a consistent two-step method of order 2; orrery uses the textbook weights.)
struct EulerStartedAdamsBashforth2 {
  static constexpr const char* name = "ab2";
  static constexpr IntegratorFamily family = IntegratorFamily::multistep;
  static constexpr const char* description =
      "Adams–Bashforth 2-step, started by 4 explicit Euler steps (as the published maps)";
  static constexpr int order = 2;
  static constexpr int steps = 2;
  static constexpr int starter_steps = 4;
  ORRERY_HD static constexpr double beta(int j) { return AdamsBashforthWeights<2>::beta[j]; }
};

// Four-step Adams–Bashforth.
struct EulerStartedAdamsBashforth4 {
  static constexpr const char* name = "ab4";
  static constexpr IntegratorFamily family = IntegratorFamily::multistep;
  static constexpr const char* description =
      "Adams–Bashforth 4-step, started by 4 explicit Euler steps (as the published maps)";
  static constexpr int order = 4;
  static constexpr int steps = 4;
  static constexpr int starter_steps = 4;
  ORRERY_HD static constexpr double beta(int j) { return AdamsBashforthWeights<4>::beta[j]; }
};

}  // namespace orrery
