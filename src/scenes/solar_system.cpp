// SPDX-License-Identifier: MIT
#include "orrery/scenes/solar_system.hpp"

#include <numbers>

#include "orrery/physics/orbital_elements.hpp"
#include "orrery/scenes/centre_of_mass_frame.hpp"

namespace orrery {

namespace {

using P = SolarSystemParams;
constexpr const char* kUnits = "au, day, msun (G = k^2, Gauss's constant)";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(real_field("softening", "Plummer softening length in au (0: the planets themselves)",
                         &P::softening, RealRule::NonNegative));
  return f;
}

double radians(double degrees) { return degrees * (std::numbers::pi / 180.0); }

}  // namespace

const std::vector<PlanetElementsJ2000>& planets_j2000() {
  static const std::vector<PlanetElementsJ2000> rows{
      {"Mercury", 0.38709927, 0.20563593, 7.00497902, 252.25032350, 77.45779628, 48.33076593,
       6023600.0},
      {"Venus", 0.72333566, 0.00677672, 3.39467605, 181.97909950, 131.60246718, 76.67984255,
       408523.719},
      {"Earth-Moon", 1.00000261, 0.01671123, -0.00001531, 100.46457166, 102.93768193, 0.0,
       328900.56},
      {"Mars", 1.52371034, 0.09339410, 1.84969142, -4.55343205, -23.94362959, 49.55953891,
       3098703.59},
      {"Jupiter", 5.20288700, 0.04838624, 1.30439695, 34.39644051, 14.72847983, 100.47390909,
       1047.348644},
      {"Saturn", 9.53667594, 0.05386179, 2.48599187, 49.95424423, 92.59887831, 113.66242448,
       3497.9018},
      {"Uranus", 19.18916464, 0.04725744, 0.77263783, 313.23810451, 170.95427630, 74.01692503,
       22902.98},
      {"Neptune", 30.06992276, 0.00859048, 1.77004347, -55.12002969, 44.96476227, 131.78422574,
       19412.26}};
  return rows;
}

const std::vector<ParamField<SolarSystemParams>>& solar_system_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_solar_system(const SolarSystemParams& params) {
  check_scene_params(solar_system_fields(), params);
  InitialConditions ic;
  ic.scene = "solar-system";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin; ecliptic and equinox of J2000";
  ic.g = kGaussG;
  ic.softening = params.softening;
  // Mercury's period is 88 days: a quarter day is ~350 steps an orbit for the fixed-step
  // methods (whfast takes ~20 times that step); 10⁴ days is 27 years.
  ic.dt = 0.25;
  ic.t_end = 1.0e4;
  ic.parameters = scene_parameter_values(solar_system_fields(), params);

  const PointMass sun{1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  Particles<double>& p = ic.particles;
  const std::vector<PlanetElementsJ2000>& rows = planets_j2000();
  p.resize(rows.size() + 1);  // zeros: the Sun at rest at the origin, heliocentric
  p.mass[0] = sun.mass;
  p.id[0] = 0;
  std::size_t i = 1;
  for (const PlanetElementsJ2000& row : rows) {
    // The inclination's sign: Standish's Earth has I = −0.00001531° with Ω = 0; an orbit's
    // inclination is in [0, π], so the sign goes into the node (Ω + 180°, ω = ϖ − Ω then
    // follows), which is the same plane and the same motion.
    const bool flip = row.inclination < 0.0;
    OrbitGiven given;
    given.a = row.a;
    given.e = row.e;
    given.inc = radians(flip ? -row.inclination : row.inclination);
    given.Omega = radians(row.node_longitude + (flip ? 180.0 : 0.0));
    given.pomega = radians(row.perihelion_longitude);
    given.l = radians(row.mean_longitude);
    const PointMass b = body_from_orbit(ic.g, sun, 1.0 / row.sun_mass_ratio, given);
    p.x[i] = b.position.x;
    p.y[i] = b.position.y;
    p.z[i] = b.position.z;
    p.vx[i] = b.velocity.x;
    p.vy[i] = b.velocity.y;
    p.vz[i] = b.velocity.z;
    p.mass[i] = b.mass;
    p.id[i] = i;
    ++i;
  }
  move_to_centre_of_mass_frame(p);
  return ic;
}

SceneEntry solar_system_scene() {
  return make_scene_entry<P>(
      {"solar-system",
       "the Sun and the eight planets at J2000 from Standish's mean elements (Earth as the "
       "Earth-Moon barycentre)",
       kUnits,
       "Standish, Keplerian Elements for Approximate Positions of the Major Planets (JPL SSD), "
       "Table 1; masses IAU 2009 (Luzum et al. 2011)",
       {}},
      solar_system_fields(), &make_solar_system);
}

}  // namespace orrery
