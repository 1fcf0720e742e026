// SPDX-License-Identifier: MIT
// Lagrangian radii: r_f is the radius of the sphere about the centre of mass that holds the
// fraction f of the total mass, the smallest distance |x_i − X| at which the mass of the bodies
// at that distance or nearer reaches f M (Aarseth, "Gravitational N-Body Simulations", 2003,
// §9.8: the usual measure of a cluster's core collapse and halo expansion). For the Plummer
// sphere of scale a, M(<r)/M = r³/(r² + a²)^{3/2}, so r_f = a / √(f^{−2/3} − 1).
#pragma once

#include <span>
#include <vector>

#include "orrery/core/particles.hpp"

namespace orrery {

// One radius per fraction (each in (0, 1]); ParameterError for a fraction outside.
std::vector<double> lagrangian_radii(const Particles<double>& p, std::span<const double> fractions);

}  // namespace orrery
