// SPDX-License-Identifier: MIT
#include "orrery/io/orbit_table.hpp"

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/physics/orbit_primary.hpp"

namespace orrery {

std::string orbit_table(const Particles<double>& p, double g, double time) {
  std::string out = fmt::format("{:>8} {:>23} {:>23} {:>11} {:>11} {:>11} {:>11} {:>23}\n", "id",
                                "a", "e", "inc", "Omega", "omega", "f", "P");
  for (std::size_t i = 1; i < p.size(); ++i) {
    try {
      const Orbit o = orbit_about(g, point_mass(p, i), primary_of(p, i, Primary{}), time);
      out += fmt::format("{:>8} {:>23.16g} {:>23.16g} {:>11.8f} {:>11.8f} {:>11.8f} {:>11.8f} "
                         "{:>23.16g}\n",
                         p.id[i], o.a, o.e, o.inc, o.Omega, o.omega, o.f, o.P);
    } catch (const ParameterError&) {  // a massless primary, or a body on it
      out += fmt::format("{:>8} {:>23} {:>23} {:>11} {:>11} {:>11} {:>11} {:>23}\n", p.id[i], "-",
                         "-", "-", "-", "-", "-", "-");
    }
  }
  return out;
}

}  // namespace orrery
