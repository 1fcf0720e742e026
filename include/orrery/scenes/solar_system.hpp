// SPDX-License-Identifier: MIT
// The Sun and the eight planets at J2000.0 (2000-01-01 12h TT) from E. M. Standish's Keplerian
// elements for approximate positions of the major planets (JPL Solar System Dynamics, Table 1,
// 1800–2050 AD: a, e, I, L, ϖ, Ω about the Sun, ecliptic and equinox of J2000), Earth as the
// Earth–Moon barycentre, masses from the IAU 2009 system of astronomical constants (Luzum et
// al., Celest. Mech. Dyn. Astr. 110, 293 (2011): the Sun's mass over each planet's system's),
// in au, day and solar masses with Gauss's constant:
//   G = k² = 0.01720209895² au³ / (M☉ day²).
// Each planet is placed on its Kepler orbit about the Sun, μ = G (M☉ + m), with ω = ϖ − Ω and
// M = L − ϖ (orbital_elements.hpp); then every body is moved to the centre-of-mass frame.
// Standish's mean elements reproduce the planets' positions to about an arcminute over their
// range of dates: a realistic Solar System, not an ephemeris.
#pragma once

#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct SolarSystemParams {
  double softening = 0.0;
};

// One planet's row of Standish's Table 1 at J2000 (a in au, angles in degrees) and the IAU 2009
// ratio M☉ / m of its system.
struct PlanetElementsJ2000 {
  const char* name;
  double a, e, inclination, mean_longitude, perihelion_longitude, node_longitude;
  double sun_mass_ratio;
};

const std::vector<PlanetElementsJ2000>& planets_j2000();

const std::vector<ParamField<SolarSystemParams>>& solar_system_fields();
InitialConditions make_solar_system(const SolarSystemParams& params);
SceneEntry solar_system_scene();

// Gauss's gravitational constant squared: G in au³ / (M☉ day²).
inline constexpr double kGaussG = 0.01720209895 * 0.01720209895;

}  // namespace orrery
