// SPDX-License-Identifier: MIT
// Orbital elements at orrery.Simulation's face: bodies added by their elements (add(mass, a=...,
// e=..., primary=...)) and the elements of every body after the first (orbits()), by
// physics/orbital_elements.hpp about the primaries of physics/orbit_primary.hpp.
#pragma once

#include <vector>

#include "bindings.hpp"
#include "orrery/core/particles.hpp"

namespace orrery::python {

// Appends len(masses) bodies to p, each from its elements (`elements`: keyword -> one number,
// or one per body) about its primary (primary=: None or 'jacobi', the barycentre of the bodies
// before it; 'barycentre', of all bodies; or the index of a body) among the bodies there before it (those appended just
// before it included), at the simulation's time `time` (for T). ParameterError naming the
// keyword (with the body's place among those added, when there are several), or an unknown
// keyword.
void append_orbits(Particles<double>& p, const std::vector<double>& masses,
                   const py::dict& elements, const py::handle& primary, double g, double time);

// The elements of bodies 1 … N−1 about their primaries: a dict of float64 arrays (N−1,) keyed
// d, v, h, P, n, a, e, inc, Omega, omega, pomega, f, M, E, l, theta, T. A body that is itself
// the primary given has NaN in its row.
py::dict orbits_of(const Particles<double>& p, const py::handle& primary, double g, double time);

}  // namespace orrery::python
