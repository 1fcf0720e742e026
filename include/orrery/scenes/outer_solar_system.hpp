// SPDX-License-Identifier: MIT
// The outer Solar System of Hairer, Lubich & Wanner (Geometric Numerical Integration, 2nd ed.,
// 2006, §I.2.4, Table 2.1): the Sun (its mass raised by the inner planets'), Jupiter, Saturn,
// Uranus, Neptune and Pluto at September 5, 1994, 0h00 GST, heliocentric positions in au and
// velocities in au/day (equatorial axes), masses in solar masses, and
//   G = 2.95912208286·10⁻⁴ au³ / (M☉ day²)
// as published. The test problem of long-term integrators since (and of REBOUND's and odeint's
// examples); the scene moves the bodies to the centre-of-mass frame, as those integrations do.
#pragma once

#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct OuterSolarSystemParams {
  double softening = 0.0;
};

const std::vector<ParamField<OuterSolarSystemParams>>& outer_solar_system_fields();
InitialConditions make_outer_solar_system(const OuterSolarSystemParams& params);
SceneEntry outer_solar_system_scene();

}  // namespace orrery
