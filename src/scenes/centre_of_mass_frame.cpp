// SPDX-License-Identifier: MIT
#include "orrery/scenes/centre_of_mass_frame.hpp"

#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

void move_to_centre_of_mass_frame(Particles<double>& p) {
  const CentreOfMass c = centre_of_mass(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] -= c.position.x;
    p.y[i] -= c.position.y;
    p.z[i] -= c.position.z;
    p.vx[i] -= c.velocity.x;
    p.vy[i] -= c.velocity.y;
    p.vz[i] -= c.velocity.z;
  }
}

}  // namespace orrery
