// SPDX-License-Identifier: MIT
// WHFast's entry in the list of integrators (integrate/integrator_tables.hpp): its name, order
// and family, and the orders of its symplectic corrector. The method itself is
// wisdom_holman/array_stepper.hpp; this header stays free of it, as the GPU map includes the list.
#pragma once

#include <array>
#include <string_view>

#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

struct Whfast {
  static constexpr std::string_view name = "whfast";
  static constexpr std::string_view description =
      "Wisdom–Holman in Jacobi coordinates, Kepler drifts by universal variables (Rein & "
      "Tamayo 2015); planetary systems";
  // Of the splitting; the error is O(ε h²) for perturbations of relative size ε, and a corrector
  // of order k removes the terms up to O(ε h^k) (Wisdom, Holman & Touma 1996).
  static constexpr int order = 2;
  static constexpr IntegratorFamily family = IntegratorFamily::wisdom_holman;
  static constexpr int force_evaluations = 1;
  // The orders of the first symplectic corrector (0: none), as REBOUND offers them.
  static constexpr std::array<int, 6> corrector_orders{0, 3, 5, 7, 11, 17};
};

}  // namespace orrery
