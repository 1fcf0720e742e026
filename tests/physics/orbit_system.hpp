// SPDX-License-Identifier: MIT
// A system built as REBOUND's sim.add() builds it, for the tests of orbital elements: bodies
// added by mass at the origin or by elements about the barycentre of the bodies before (the
// Jacobi primary), read back as elements about their Jacobi primary (REBOUND's
// sim.particles[i].a, ...).
#pragma once

#include "orrery/physics/orbit_primary.hpp"

namespace orrery::orbit_test {

struct OrbitSystem {
  Particles<double> p;
  double g = 1.0;
  double time = 0.0;

  void add(const PointMass& b) {
    const std::size_t i = p.size();
    p.resize(i + 1);
    p.mass[i] = b.mass;
    p.x[i] = b.position.x, p.y[i] = b.position.y, p.z[i] = b.position.z;
    p.vx[i] = b.velocity.x, p.vy[i] = b.velocity.y, p.vz[i] = b.velocity.z;
    p.id[i] = i;
  }
  void add(double mass) { add(PointMass{.mass = mass}); }
  void add(double mass, const OrbitGiven& given, Primary primary = {}) {
    add(body_from_orbit(g, primary_of(p, p.size(), primary), mass, given, time));
  }
  Orbit orbit(std::size_t i, Primary primary = {}) const {
    return orbit_about(g, point_mass(p, i), primary_of(p, i, primary), time);
  }
};

}  // namespace orrery::orbit_test
