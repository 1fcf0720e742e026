// SPDX-License-Identifier: MIT
#include "orrery/scenes/dynamical_time.hpp"

#include <cmath>

#include <fmt/format.h>

#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

double dynamical_time(const Particles<double>& p, double g) {
  const Diagnostics d = diagnostics_of(p, 0.0, 0.0);
  const double r = d.rms_radius;
  return std::sqrt(r * r * r / (g * d.mass));
}

std::string no_time_scale_reason(const Particles<double>& p, double g) {
  const Diagnostics d = diagnostics_of(p, 0.0, 0.0);
  if (d.rms_radius == 0.0)
    return fmt::format("the {} particles all sit at one point (rms radius 0 about their centre of "
                       "mass), so they have no dynamical time to take a step from",
                       p.size());
  return fmt::format("their dynamical time sqrt(R^3/(G M)) = {} (R = {}, G = {}, M = {}) gives "
                     "no step",
                     dynamical_time(p, g), d.rms_radius, g, d.mass);
}

double power_of_two_floor(double x) {
  int exponent = 0;
  std::frexp(x, &exponent);  // x = f 2^e with f in [0.5, 1)
  return std::ldexp(1.0, exponent - 1);
}

}  // namespace orrery
