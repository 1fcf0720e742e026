// SPDX-License-Identifier: MIT
// The three-body system of the published divergence map (blbadger, "Three body problem"): G = 9.8,
// masses 10/20/30, planet 1 at (−10, 0, −11) moving at (−3, 0, 0), planet 2 at rest at the
// origin, planet 3 at (10, 10, 12) moving at (3, 0, 0). Written once: the map's parameters
// (divergence_map_params.hpp) and the ensemble's `three-body` problem
// (problems/three_body/three_body_problem.hpp) both start from it.
#pragma once

#include <array>

namespace orrery {

inline constexpr int kMapBodies = 3;

struct CanonicalThreeBody {
  static constexpr double g = 9.8;
  static constexpr std::array<double, kMapBodies> masses{10.0, 20.0, 30.0};
  // x1, y1, z1, x2, …, z3 and vx1, vy1, vz1, vx2, …, vz3.
  static constexpr std::array<double, 3 * kMapBodies> positions{-10.0, 0.0, -11.0, 0.0, 0.0,
                                                                0.0,   10.0, 10.0, 12.0};
  static constexpr std::array<double, 3 * kMapBodies> velocities{-3.0, 0.0, 0.0, 0.0, 0.0,
                                                                 0.0,  3.0, 0.0, 0.0};
};

}  // namespace orrery
