// SPDX-License-Identifier: MIT
// The primary of a body's orbit: Jacobi, a body, or the barycentre (physics/orbit_primary.hpp).
#include "orrery/physics/orbit_primary.hpp"

#include <string>

#include "orrery/core/error.hpp"

namespace orrery {

PointMass point_mass(const Particles<double>& p, std::size_t i) {
  return {p.mass[i], {p.x[i], p.y[i], p.z[i]}, {p.vx[i], p.vy[i], p.vz[i]}};
}

PointMass barycentre(const Particles<double>& p, std::size_t first, std::size_t last) {
  PointMass c;
  for (std::size_t i = first; i < last; ++i) {
    const PointMass b = point_mass(p, i);
    c.mass += b.mass;
    c.position += b.mass * b.position;
    c.velocity += b.mass * b.velocity;
  }
  if (c.mass > 0.0) {
    c.position = (1.0 / c.mass) * c.position;
    c.velocity = (1.0 / c.mass) * c.velocity;
  }
  return c;
}

PointMass primary_of(const Particles<double>& p, std::size_t i, const Primary& primary) {
  switch (primary.kind) {
    case PrimaryKind::jacobi:
      if (i == 0)
        throw ParameterError("primary", "the Jacobi primary of the first body",
                             "a body after the first (the Jacobi primary is the barycentre of "
                             "the bodies before it)");
      return barycentre(p, 0, i);
    case PrimaryKind::barycentre:
      return barycentre(p, 0, p.size());
    case PrimaryKind::body:
      if (primary.body >= p.size())
        throw ParameterError("primary", std::to_string(primary.body),
                             "the index of a body, 0 to " + std::to_string(p.size()) + " - 1");
      if (primary.body == i)
        throw ParameterError("primary", std::to_string(primary.body),
                             "a body other than the one whose orbit it is");
      return point_mass(p, primary.body);
  }
  return {};
}

}  // namespace orrery
