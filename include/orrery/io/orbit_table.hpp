// SPDX-License-Identifier: MIT
// The orbital elements of every body after the first as a text table (orrery sim --orbits):
// each about its Jacobi primary, as REBOUND's sim.orbits() reckons them
// (physics/orbit_primary.hpp, physics/orbital_elements.hpp).
#pragma once

#include <string>

#include "orrery/core/particles.hpp"

namespace orrery {

// A header line and one line per body 1 … N−1: id, a, e, inc, Omega, omega, f, P (angles in
// radians), at simulation time `time` with gravitational constant `g`. A body whose primary has
// no mass gets a line of "-".
std::string orbit_table(const Particles<double>& p, double g, double time);

}  // namespace orrery
