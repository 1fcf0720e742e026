// SPDX-License-Identifier: MIT
#include "orrery/scenes/nbody_units.hpp"

#include <cmath>

namespace orrery {

NbodyUnits nbody_units(double g, double length, double mass) {
  const double time = std::sqrt(length * length * length / (g * mass));
  return {length, mass, time, length / time};
}

void to_nbody_units(InitialConditions& ic, const NbodyUnits& u, const std::string& label) {
  Particles<double>& p = ic.particles;
  for (std::vector<double>* a : {&p.x, &p.y, &p.z, &p.softening})
    for (double& v : *a) v /= u.length;
  for (std::vector<double>* a : {&p.vx, &p.vy, &p.vz})
    for (double& v : *a) v /= u.velocity;
  for (double& m : p.mass) m /= u.mass;
  ic.g = 1.0;
  ic.softening /= u.length;
  ic.dt /= u.time;
  ic.t_end /= u.time;
  ic.units = label;
}

}  // namespace orrery
