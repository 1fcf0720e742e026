// SPDX-License-Identifier: MIT
#include "orrery/scenes/dynamical_time.hpp"

#include <cmath>

#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

double dynamical_time(const Particles<double>& p, double g) {
  const Diagnostics d = diagnostics_of(p, 0.0, 0.0);
  const double r = d.rms_radius;
  return std::sqrt(r * r * r / (g * d.mass));
}

double power_of_two_floor(double x) {
  int exponent = 0;
  std::frexp(x, &exponent);  // x = f 2^e with f in [0.5, 1)
  return std::ldexp(1.0, exponent - 1);
}

}  // namespace orrery
