// SPDX-License-Identifier: MIT
// The state of a small second-order system x'' = a(x) of N bodies, held in registers (one
// trajectory per GPU thread or SIMD lane): positions and velocities, any lane type.
#pragma once

#include "orrery/core/vec3.hpp"
#include "orrery/integrate/phase_state.hpp"

namespace orrery {

template <class T, int N>
using BodyState = PhaseState<Vec3<T>, N>;

}  // namespace orrery
