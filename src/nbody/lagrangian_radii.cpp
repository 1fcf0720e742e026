// SPDX-License-Identifier: MIT
#include "orrery/nbody/lagrangian_radii.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/nbody/diagnostics.hpp"

namespace orrery {

std::vector<double> lagrangian_radii(const Particles<double>& p,
                                     std::span<const double> fractions) {
  for (double f : fractions)
    if (!(f > 0.0 && f <= 1.0))
      throw ParameterError("mass fraction", fmt::format("{}", f), "a fraction in (0, 1]");
  const CentreOfMass c = centre_of_mass(p);
  const std::size_t n = p.size();
  std::vector<std::pair<double, double>> by_radius(n);  // (r, m)
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = p.x[i] - c.position.x, dy = p.y[i] - c.position.y,
                 dz = p.z[i] - c.position.z;
    by_radius[i] = {std::sqrt(dx * dx + dy * dy + dz * dz), p.mass[i]};
  }
  std::sort(by_radius.begin(), by_radius.end());
  std::vector<double> out;
  for (double f : fractions) {
    const double wanted = f * c.mass;
    double inside = 0.0, r = n ? by_radius.back().first : 0.0;
    for (const auto& [radius, m] : by_radius) {
      inside += m;
      // Bodies at the same distance count together; a rounding short of f·M at the last body
      // is f·M reached.
      if (inside >= wanted * (1 - 1e-12)) {
        r = radius;
        break;
      }
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace orrery
