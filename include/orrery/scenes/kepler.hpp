// SPDX-License-Identifier: MIT
// Two bodies on a Kepler ellipse, started at pericentre (G = 1):
//   r_p = a (1 − e),   v_p = √(G (m1 + m2) (1 + e) / (a (1 − e)))   (vis-viva),
//   E = −G m1 m2 / (2a),   T = 2π √(a³ / (G (m1 + m2))),
// (Murray & Dermott, Solar System Dynamics, 1999, §2.5). Centre-of-mass frame: body 1 at
// −(m2/M) r_p x̂ moving along −ŷ, body 2 at +(m1/M) r_p x̂ moving along +ŷ, so the orbit turns
// counter-clockwise about +z with the pericentre on the +x axis.
#pragma once

#include <array>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct KeplerParams {
  double eccentricity = 0.5;
  double semi_major_axis = 1.0;
  std::array<double, 2> masses{1.0, 1e-3};
  double softening = 0.0;
};

const std::vector<ParamField<KeplerParams>>& kepler_fields();
InitialConditions make_kepler(const KeplerParams& params);
SceneEntry kepler_scene();

// T = 2π √(a³ / (G M)) for G = 1.
double kepler_period(const KeplerParams& params);

}  // namespace orrery
