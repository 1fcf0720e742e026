// SPDX-License-Identifier: MIT
// Hard binaries planted in a system (a test and benchmark problem for block time steps): body i
// becomes a pair of two bodies of its mass m, at ±r/2 about its place along a random direction,
// on the circular orbit of their softened mutual attraction,
//
//   v_rel² / r = G (2m) r / (r² + ε²)^{3/2}     (Plummer softening, ε the global softening),
//
// each moving at ±v_rel/2 perpendicular to the pair's axis on top of body i's velocity, so the
// pair's centre of mass keeps body i's place and momentum (the system gains mass m per binary).
#pragma once

#include <cstdint>

#include "orrery/core/particles.hpp"

namespace orrery {

// Every (N/count)-th body becomes a binary of separation r; directions from `seed`. Particles
// with their own softening are refused (InputError): ε above is the global one.
Particles<double> with_hard_binaries(Particles<double> p, int count, double separation,
                                     double softening, double g, std::uint64_t seed);

}  // namespace orrery
