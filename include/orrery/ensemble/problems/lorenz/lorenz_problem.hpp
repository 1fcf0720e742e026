// SPDX-License-Identifier: MIT
// The Lorenz system as an ensemble problem (ensemble/ensemble_problem.hpp): the state (x, y, z),
// σ, ρ, β carried by each trajectory (so a run can sweep one of them), no invariant.
#pragma once

#include <array>
#include <string_view>

#include "orrery/physics/lorenz.hpp"

namespace orrery {

struct LorenzProblem {
  static constexpr std::string_view name = "lorenz";
  static constexpr std::string_view description =
      "x' = sigma (y - x), y' = x (rho - z) - y, z' = x y - beta z (Lorenz 1963)";
  static constexpr bool second_order = false;
  static constexpr int coordinates = 3;
  static constexpr int parameters = 3;
  static constexpr std::array<std::string_view, 3> state_names{"x", "y", "z"};
  static constexpr std::array<std::string_view, 3> parameter_names{"sigma", "rho", "beta"};
  static constexpr std::array<double, 3> parameter_defaults{10.0, 28.0, 8.0 / 3.0};
  // The GPU ensemble solvers' benchmark start u0 = (1, 0, 0).
  static constexpr std::array<double, 3> state_defaults{1.0, 0.0, 0.0};
  static constexpr bool has_energy = false;

  struct Data {};

  template <class T>
  struct Field {
    LorenzParameters<T> p;
    ORRERY_HD void operator()(const T (&u)[3], T (&dudt)[3]) const { lorenz_derivative(p, u, dudt); }
  };
  template <class T, class Parameters>
  ORRERY_HD static Field<T> field(const Data&, const Parameters& k) {
    return {{k.value[0], k.value[1], k.value[2]}};
  }

  ORRERY_HD static double energy(const Data&, const double*, const double*) { return 0.0; }
  ORRERY_HD static double potential(const Data&, const double*, const double*) { return 0.0; }
};

}  // namespace orrery
