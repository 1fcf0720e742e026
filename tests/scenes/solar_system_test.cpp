// SPDX-License-Identifier: MIT
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/physics/orbital_elements.hpp"
#include "orrery/scenes/outer_solar_system.hpp"
#include "orrery/scenes/scene_registry.hpp"
#include "orrery/scenes/solar_system.hpp"

namespace orrery {
namespace {

PointMass scene_body(const Particles<double>& p, std::size_t i) {
  return {p.mass[i], {p.x[i], p.y[i], p.z[i]}, {p.vx[i], p.vy[i], p.vz[i]}};
}

double in_degrees(double radians) { return radians * (180.0 / std::numbers::pi); }

// The difference of two angles in degrees, folded into (−180, 180].
double degrees_apart(double a, double b) {
  double d = std::fmod(a - b, 360.0);
  if (d > 180.0) d -= 360.0;
  if (d <= -180.0) d += 360.0;
  return d;
}

// Elements → state → elements passes through a few dozen roundings of values of order 1 (the
// centre-of-mass shift included): 10⁻¹² leaves a margin of ~100 ulps.
constexpr double kRoundTrip = 1e-12;

TEST(SolarSystemScene, EachPlanetIsOnStandishsOrbitAboutTheSun) {
  const InitialConditions ic = make_solar_system({});
  const auto& rows = planets_j2000();
  ASSERT_EQ(ic.particles.size(), rows.size() + 1);
  const PointMass sun = scene_body(ic.particles, 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PlanetElementsJ2000& row = rows[i];
    SCOPED_TRACE(row.name);
    const Orbit o = orbit_about(ic.g, scene_body(ic.particles, i + 1), sun);
    EXPECT_NEAR(o.a / row.a, 1.0, kRoundTrip);
    EXPECT_NEAR(o.e, row.e, kRoundTrip);
    // The inclination comes back from acos(h_z / h), which near 0 keeps only ~√ε of an angle:
    // Earth's 2.7·10⁻⁷ rad returns to ~10⁻¹⁰ rad, 10⁻⁸ degrees.
    EXPECT_NEAR(in_degrees(o.inc), std::abs(row.inclination), 1e-7);
    EXPECT_NEAR(degrees_apart(in_degrees(o.pomega), row.perihelion_longitude), 0.0, 1e-9);
    EXPECT_NEAR(degrees_apart(in_degrees(o.l), row.mean_longitude), 0.0, 1e-9);
    EXPECT_NEAR(ic.particles.mass[i + 1] * row.sun_mass_ratio, 1.0, 1e-15);
  }
}

// Independent of the table's layout: Kepler's third law with Gauss's constant gives the sidereal
// periods (Earth–Moon barycentre 365.256 days, Jupiter 4 332.6 days; Standish's mean a, so to
// the 10⁻⁵ of the mean elements' fit, not to the digits of an ephemeris).
TEST(SolarSystemScene, PeriodsAreTheSiderealYearAndJupitersTwelveYears) {
  const InitialConditions ic = make_solar_system({});
  const PointMass sun = scene_body(ic.particles, 0);
  EXPECT_NEAR(orbit_about(ic.g, scene_body(ic.particles, 3), sun).P / 365.25636, 1.0, 1e-5);
  EXPECT_NEAR(orbit_about(ic.g, scene_body(ic.particles, 5), sun).P / 4332.59, 1.0, 1e-4);
}

TEST(SolarSystemScene, CentreOfMassIsAtRestAtTheOrigin) {
  for (const char* name : {"solar-system", "outer-solar-system"}) {
    SCOPED_TRACE(name);
    const InitialConditions ic = make_scene(name, {});
    auto engine = make_force_engine<double>(
        "direct", EngineOptions{.g = ic.g, .softening = ic.softening, .threads = 1});
    const Diagnostics d = diagnostics_of(ic.particles, *engine, 0.0);
    // The shift leaves |X| and |V| at rounding of the planets' ~30 au and ~0.01 au/day.
    EXPECT_LT(std::abs(d.com_position.x) + std::abs(d.com_position.y) + std::abs(d.com_position.z),
              1e-14);
    EXPECT_LT(std::abs(d.com_velocity.x) + std::abs(d.com_velocity.y) + std::abs(d.com_velocity.z),
              1e-17);
    EXPECT_LT(d.energy_total, 0.0);
  }
}

// Hairer, Lubich & Wanner's 1994 state puts each giant planet near its known orbit: a within
// 2 % of Standish's mean value (the osculating a of a giant planet swings by ~1 % over its
// great inequality and resonances), e within 0.02.
TEST(OuterSolarSystemScene, GiantPlanetsAreOnTheirKnownOrbits) {
  const InitialConditions ic = make_outer_solar_system({});
  ASSERT_EQ(ic.particles.size(), 6u);
  const PointMass sun = scene_body(ic.particles, 0);
  const auto& rows = planets_j2000();
  for (std::size_t k = 0; k < 4; ++k) {
    const PlanetElementsJ2000& row = rows[4 + k];  // Jupiter, Saturn, Uranus, Neptune
    SCOPED_TRACE(row.name);
    const Orbit o = orbit_about(ic.g, scene_body(ic.particles, 1 + k), sun);
    EXPECT_NEAR(o.a / row.a, 1.0, 0.02);
    EXPECT_NEAR(o.e, row.e, 0.02);
  }
  // Pluto: a = 39.5 au, e = 0.25.
  const Orbit pluto = orbit_about(ic.g, scene_body(ic.particles, 5), sun);
  EXPECT_NEAR(pluto.a / 39.48, 1.0, 0.02);
  EXPECT_NEAR(pluto.e, 0.249, 0.02);
}

}  // namespace
}  // namespace orrery
