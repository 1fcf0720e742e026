// SPDX-License-Identifier: MIT
// SABA1 … SABA4's entries in the list of integrators (integrate/integrator_tables.hpp): their
// names, orders and family. The method is wisdom_holman/array_stepper.hpp's with the splitting
// of Laskar & Robutel (Celest. Mech. Dyn. Astron. 80, 39, 2001), as REBOUND's saba.
#pragma once

#include <string_view>

#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

template <int N>
struct Saba {
  static constexpr std::string_view names[] = {"saba1", "saba2", "saba3", "saba4"};
  static constexpr std::string_view descriptions[] = {
      "SABA1, Laskar & Robutel 2001: Wisdom–Holman's map in Jacobi coordinates; planetary systems",
      "SABA2, Laskar & Robutel 2001: error O(ε h⁴ + ε² h²) in Jacobi coordinates; planetary "
      "systems",
      "SABA3, Laskar & Robutel 2001: error O(ε h⁶ + ε² h²) in Jacobi coordinates; planetary "
      "systems",
      "SABA4, Laskar & Robutel 2001: error O(ε h⁸ + ε² h²) in Jacobi coordinates; planetary "
      "systems"};
  static constexpr std::string_view name = names[N - 1];
  static constexpr std::string_view description = descriptions[N - 1];
  // In the step, for perturbations of relative size ε small enough that ε² h² stays below ε h^{2N}.
  static constexpr int order = 2 * N;
  static constexpr IntegratorFamily family = IntegratorFamily::wisdom_holman;
  static constexpr int force_evaluations = N;  // one a kick; the last drift joins the next step's
  static constexpr int saba = N;
};

using Saba1 = Saba<1>;
using Saba2 = Saba<2>;
using Saba3 = Saba<3>;
using Saba4 = Saba<4>;

}  // namespace orrery
