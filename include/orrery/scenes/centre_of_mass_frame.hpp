// SPDX-License-Identifier: MIT
// The frame in which the centre of mass is at rest at the origin: x_i ← x_i − X, v_i ← v_i − V
// with M X = Σ m_i x_i and M V = Σ m_i v_i (compensated sums). Sampled scenes are moved there,
// as N-body initial conditions conventionally are (Aarseth, Gravitational N-Body Simulations,
// 2003, §8.2), so that a run neither drifts off the picture nor shows sampling noise as motion.
#pragma once

#include "orrery/core/particles.hpp"

namespace orrery {

void move_to_centre_of_mass_frame(Particles<double>& p);

}  // namespace orrery
