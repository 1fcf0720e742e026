// SPDX-License-Identifier: MIT
// The families of integrators. Every coefficient table names its family
// (`static constexpr IntegratorFamily family`), and code that runs a table dispatches on it,
// never on the shape of the table: an implicit Runge–Kutta tableau has the members of an
// explicit one, but needs another stepper.
#pragma once

namespace orrery {

enum class IntegratorFamily {
  explicit_runge_kutta,  // integrate/runge_kutta/
  splitting,             // integrate/splitting/: symplectic drift/kick sequences
  multistep,             // integrate/multistep/: Adams–Bashforth with a one-step starter
  extrapolation,         // integrate/extrapolation/: Gragg–Bulirsch–Stoer
  block_steps,           // integrate/block_steps/: leapfrog with a power-of-two step per body
  ias15,                 // integrate/ias15/: Gauss–Radau predictor–corrector, adaptive
  implicit_runge_kutta,  // integrate/implicit/: collocation methods, stages solved by iteration
  wisdom_holman,         // integrate/wisdom_holman/: Kepler drifts and interaction kicks (whfast)
};

}  // namespace orrery
