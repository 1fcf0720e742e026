// SPDX-License-Identifier: MIT
// One pixel of the divergence map, for any lane type (one GPU thread, one SIMD lane):
//
//   for n = 0, 1, …, steps − 1:
//     if |x_b − x_b'|² ≤ d_c² (and held at every earlier n): count ← count + 1, else stop
//     advance both systems by one explicit Euler step
//
// so count is the first step at which the twins are farther apart than d_c, or `steps`. The
// varied body b is a template argument: a run-time index into register arrays would push them
// to memory on the GPU. Backends own the loop (and what a lane does when it finishes); these
// are the pieces of its body.
#pragma once

#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/physics/pairwise_gravity.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery {

template <class T>
struct TwinState {
  BodyState<T, kMapBodies> base, twin;
};

template <int Body, class T>
ORRERY_HD T twin_separation2(const TwinState<T>& s) {
  return norm2(s.base.x[Body] - s.twin.x[Body]);
}

template <class T, class InverseCube>
ORRERY_HD void twin_advance(TwinState<T>& s, const PairwiseGravity<kMapBodies, T, InverseCube>& g,
                            const T& dt) {
  rk_step<ExplicitEuler>(s.base, dt, g);
  rk_step<ExplicitEuler>(s.twin, dt, g);
}

}  // namespace orrery
