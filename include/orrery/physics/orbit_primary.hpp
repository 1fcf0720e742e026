// SPDX-License-Identifier: MIT
// The primary a body's orbit is reckoned about, as REBOUND's `primary=` chooses it:
//   - jacobi (REBOUND's default): the barycentre of the bodies before it, with their total mass
//     (Jacobi coordinates: body i orbits the centre of mass of bodies 0 … i−1; Wisdom & Holman
//     1991, AJ 102, 1528), so that a hierarchical system is built and read one orbit at a time;
//   - body k: body k itself (heliocentric elements when k = 0);
//   - barycentre: the centre of mass of all bodies with their total mass (REBOUND's
//     primary=sim.com(): μ is then G (M_total + m), the body counted in both).
// Adding bodies one after another, the barycentre of the bodies present is the Jacobi primary.
#pragma once

#include <cstddef>

#include "orrery/core/particles.hpp"
#include "orrery/physics/orbital_elements.hpp"

namespace orrery {

enum class PrimaryKind { jacobi, body, barycentre };

struct Primary {
  PrimaryKind kind = PrimaryKind::jacobi;
  std::size_t body = 0;  // the body, for PrimaryKind::body
};

// Body i of p as a point mass.
PointMass point_mass(const Particles<double>& p, std::size_t i);
// The centre of mass of bodies [first, last) of p with their total mass.
PointMass barycentre(const Particles<double>& p, std::size_t first, std::size_t last);

// The primary of body i of p. ParameterError naming "primary" for the Jacobi primary of body 0
// (nothing before it), a body index that is not below p.size(), or body i itself.
PointMass primary_of(const Particles<double>& p, std::size_t i, const Primary& primary);

}  // namespace orrery
