// SPDX-License-Identifier: MIT
// A gravitating system on the host, structure of arrays: one array per coordinate, so that loops
// over particles vectorise and the arrays copy to a device as they are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace orrery {

template <class Real>
struct Particles {
  std::vector<Real> x, y, z;     // positions
  std::vector<Real> vx, vy, vz;  // velocities
  std::vector<Real> mass;
  std::vector<Real> softening;  // per particle ε_i, or empty: the engine's global ε
  // Physical radii for collisions (nbody/collisions.hpp), or empty: none (points).
  std::vector<Real> radius;
  std::vector<std::uint64_t> id;

  std::size_t size() const { return mass.size(); }
  void resize(std::size_t n) {
    for (auto* a : {&x, &y, &z, &vx, &vy, &vz, &mass}) a->resize(n);
    id.resize(n);
    if (!softening.empty()) softening.resize(n);
    if (!radius.empty()) radius.resize(n);
  }
};

// The same system in another precision (values rounded once).
template <class To, class From>
Particles<To> convert_particles(const Particles<From>& p) {
  Particles<To> q;
  auto conv = [](const std::vector<From>& a) { return std::vector<To>(a.begin(), a.end()); };
  q.x = conv(p.x);
  q.y = conv(p.y);
  q.z = conv(p.z);
  q.vx = conv(p.vx);
  q.vy = conv(p.vy);
  q.vz = conv(p.vz);
  q.mass = conv(p.mass);
  q.softening = conv(p.softening);
  q.radius = conv(p.radius);
  q.id = p.id;
  return q;
}

}  // namespace orrery
