// SPDX-License-Identifier: MIT
// Hénon–Heiles as an ensemble problem (ensemble/ensemble_problem.hpp): the state (x, y, px, py),
// the field a = −∇V of physics/henon_heiles.hpp, the energy as its invariant.
#pragma once

#include <array>
#include <string_view>

#include "orrery/physics/henon_heiles.hpp"

namespace orrery {

struct HenonHeilesProblem {
  static constexpr std::string_view name = "henon-heiles";
  static constexpr std::string_view description =
      "H = (px^2 + py^2)/2 + (x^2 + y^2)/2 + x^2 y - y^3/3 (Henon & Heiles 1964)";
  static constexpr bool second_order = true;
  static constexpr int coordinates = 2;
  static constexpr int parameters = 0;
  static constexpr std::array<std::string_view, 4> state_names{"x", "y", "px", "py"};
  static constexpr std::array<std::string_view, 0> parameter_names{};
  static constexpr std::array<double, 0> parameter_defaults{};
  // The chaotic orbit at E = 1/8 of the literature (x, y, px, py) = (0, −0.25, 0.42081, 0).
  static constexpr std::array<double, 4> state_defaults{0.0, -0.25, 0.42081, 0.0};
  static constexpr bool has_energy = true;

  struct Data {};

  template <class T>
  struct Field {
    ORRERY_HD void operator()(const T (&q)[2], T (&a)[2]) const {
      henon_heiles_acceleration(q, a);
    }
  };
  template <class T, class Parameters>
  ORRERY_HD static Field<T> field(const Data&, const Parameters&) {
    return {};
  }

  ORRERY_HD static double energy(const Data&, const double*, const double* y) {
    const double q[2] = {y[0], y[1]}, p[2] = {y[2], y[3]};
    return henon_heiles_energy(q, p);
  }
  ORRERY_HD static double potential(const Data&, const double*, const double* q) {
    return henon_heiles_potential(q[0], q[1]);
  }
};

}  // namespace orrery
