// SPDX-License-Identifier: MIT
// Time scales for recommending a step where a scene has no natural one (particles from a file):
//   t_dyn = √(R³ / (G M)),  R = √(Σ m |x − X|² / M), the rms radius about the centre of mass,
// the time a particle takes to cross a region of size R in the system's own gravity (Binney &
// Tremaine, Galactic Dynamics, 2nd ed., §2.2.2). A rough scale, no more.
#pragma once

#include <string>

#include "orrery/core/particles.hpp"

namespace orrery {

double dynamical_time(const Particles<double>& p, double g);

// Why `p` gives no step to recommend, for a message: "the 2 particles all sit at one point
// (rms radius 0 about their centre of mass), so they have no dynamical time to take a step
// from", or the dynamical time itself where it is 0 or not finite.
std::string no_time_scale_reason(const Particles<double>& p, double g);

// The largest power of two not above x > 0: steps that are powers of two reach round times
// exactly, and their multiples are exact.
double power_of_two_floor(double x);

}  // namespace orrery
