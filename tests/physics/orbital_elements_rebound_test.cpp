// SPDX-License-Identifier: MIT
// REBOUND's own tests of orbital elements, translated (REBOUND at /work/.mirror/hannorein+rebound,
// rebound/tests/test_orbital_elements.py, test_particle.py, test_simulation.py), with their
// tolerances: bodies added by elements about the barycentre of the bodies before (REBOUND's
// default primary) read back the same elements about their Jacobi primary. Each test names the
// one it translates. REBOUND's test particles (m = 0) are kept: the elements take m >= 0, and so
// does a Simulation (test particles: docs/guide/planetary.md).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "orbit_system.hpp"
#include "orrery/core/error.hpp"

namespace orrery {
namespace {

using orbit_test::OrbitSystem;
using std::numbers::pi;

// REBOUND's `d` (abs error tolerance) in test_orbital_elements.py.
constexpr double kReboundTolerance = 1e-12;
// REBOUND's delta in test_particle.py and test_simulation.py.
constexpr double kReboundTightTolerance = 1e-15;

enum class Pericentre { omega, pomega };
enum class Place { l, f, theta, M, T };

OrbitGiven given_of(double a, double e, double inc, double Omega, Pericentre which, Place place,
                    double value) {
  OrbitGiven g{.a = a, .e = e, .inc = inc, .Omega = Omega};
  (which == Pericentre::omega ? g.omega : g.pomega) = 0.12;
  switch (place) {
    case Place::l: g.l = value; break;
    case Place::f: g.f = value; break;
    case Place::theta: g.theta = value; break;
    case Place::M: g.M = value; break;
    case Place::T: g.T = value; break;
  }
  return g;
}

double place_of(const Orbit& o, Place place) {
  switch (place) {
    case Place::l: return o.l;
    case Place::f: return o.f;
    case Place::theta: return o.theta;
    case Place::M: return o.M;
    case Place::T: return o.T;
  }
  return 0.0;
}

constexpr Place kPlaces[] = {Place::l, Place::f, Place::theta, Place::M, Place::T};

// The ten bodies of test_inclined_eccentric and test_retrograde_inclined_eccentric: ω then ϖ,
// each with l, f, θ, M, T = 0.632, at a = 1.24, 2.24, ..., 10.24.
void inclined_eccentric(double inc) {
  OrbitSystem s;
  s.add(1.2354);
  for (int k = 0; k < 10; ++k)
    s.add(1e-4, given_of(1.24 + k, 0.123, inc, 0.64, k < 5 ? Pericentre::omega : Pericentre::pomega,
                         kPlaces[k % 5], 0.632));
  for (int k = 0; k < 10; ++k) {
    const Orbit o = s.orbit(k + 1);
    SCOPED_TRACE(k + 1);
    EXPECT_NEAR(o.e, 0.123, kReboundTolerance);
    EXPECT_NEAR(o.inc, inc, kReboundTolerance);
    EXPECT_NEAR(o.Omega, 0.64, kReboundTolerance);
    EXPECT_NEAR(o.a, 1.24 + k, kReboundTolerance);
    EXPECT_NEAR(k < 5 ? o.omega : o.pomega, 0.12, kReboundTolerance);
    EXPECT_NEAR(place_of(o, kPlaces[k % 5]), 0.632, kReboundTolerance);
  }
}

// The eleven bodies of test_planar_eccentric and test_retrorade_planar_eccentric: a dummy, then
// ϖ = 0.12 with l, f, θ, M, T = 0.632 without and with Ω = 1.25 (T = 6.32 for the last).
void planar_eccentric(double inc) {
  OrbitSystem s;
  s.add(1.2354);
  s.add(1e-4, OrbitGiven{.a = 1.0, .e = 0.123, .inc = inc});
  for (int k = 0; k < 10; ++k) {
    const double value = k == 9 ? 6.32 : 0.632;
    s.add(1e-4, given_of(1.24 + k, 0.123, inc, k < 5 ? 0.0 : 1.25, Pericentre::pomega,
                         kPlaces[k % 5], value));
  }
  for (std::size_t i = 1; i < s.p.size(); ++i)
    EXPECT_NEAR(s.orbit(i).e, 0.123, kReboundTolerance) << i;
  for (int k = 0; k < 10; ++k) {
    const Orbit o = s.orbit(k + 2);
    SCOPED_TRACE(k + 2);
    EXPECT_NEAR(o.inc, inc, kReboundTolerance);
    EXPECT_NEAR(o.a, 1.24 + k, kReboundTolerance);
    EXPECT_NEAR(o.pomega, 0.12, kReboundTolerance);
    EXPECT_NEAR(place_of(o, kPlaces[k % 5]), k == 9 ? 6.32 : 0.632, kReboundTolerance);
  }
}

// test_inclined_circular, test_planar_circular and their retrograde twins: a dummy, then l and θ.
void circular(double inc, double Omega) {
  OrbitSystem s;
  s.add(1.2354);
  s.add(1e-4, OrbitGiven{.a = 1.0, .inc = inc, .Omega = Omega});
  s.add(1e-4, OrbitGiven{.a = 1.24, .inc = inc, .Omega = Omega, .l = 0.632});
  s.add(1e-4, OrbitGiven{.a = 2.24, .inc = inc, .Omega = Omega, .theta = 0.632});
  for (std::size_t i = 1; i < 4; ++i) {
    const Orbit o = s.orbit(i);
    EXPECT_NEAR(o.e, 0.0, kReboundTolerance) << i;
    EXPECT_NEAR(o.inc, inc, kReboundTolerance) << i;
    if (Omega != 0.0) {
      EXPECT_NEAR(o.Omega, Omega, kReboundTolerance) << i;
    }
  }
  EXPECT_NEAR(s.orbit(2).a, 1.24, kReboundTolerance);
  EXPECT_NEAR(s.orbit(2).l, 0.632, kReboundTolerance);
  EXPECT_NEAR(s.orbit(3).a, 2.24, kReboundTolerance);
  EXPECT_NEAR(s.orbit(3).theta, 0.632, kReboundTolerance);
}

// test_orbital_elements.py: test_inclined_eccentric, test_retrograde_inclined_eccentric.
TEST(OrbitalElementsRebound, InclinedEccentric) { inclined_eccentric(0.14); }
TEST(OrbitalElementsRebound, RetrogradeInclinedEccentric) { inclined_eccentric(2.14); }
// test_planar_eccentric, test_retrorade_planar_eccentric.
TEST(OrbitalElementsRebound, PlanarEccentric) { planar_eccentric(0.0); }
TEST(OrbitalElementsRebound, RetrogradePlanarEccentric) { planar_eccentric(pi); }
// test_inclined_circular, test_planar_circular, test_retrograde_inclined_circular,
// test_retrograde_planar_circular.
TEST(OrbitalElementsRebound, InclinedCircular) { circular(0.14, 0.64); }
TEST(OrbitalElementsRebound, PlanarCircular) { circular(0.0, 0.0); }
TEST(OrbitalElementsRebound, RetrogradeInclinedCircular) { circular(2.14, 0.64); }
TEST(OrbitalElementsRebound, RetrogradePlanarCircular) { circular(pi, 0.0); }

// test_orbital_elements.py: test_add_errors (each refusal a ParameterError naming the value).
TEST(OrbitalElementsRebound, AddErrors) {
  OrbitSystem s;
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 1.0}), ParameterError);  // no body to orbit
  s.add(1.0);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 1.0, .e = 1.0}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 1.0, .e = -2.0}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 1.0, .e = 1.2}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = -1.0, .e = 0.2}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = -1.0, .e = 2.2, .f = 3.0}), ParameterError);
  EXPECT_EQ(s.p.size(), 1u);
}

// test_orbital_elements.py: test_orbit_errors, and test_particle.py: test_orbits_errors: no
// elements about a massless primary, nor of a body on top of its primary.
TEST(OrbitalElementsRebound, OrbitErrors) {
  OrbitSystem s;
  s.add(PointMass{.mass = 0.0});
  s.add(PointMass{.mass = 0.0, .position = {1.0, 0.0, 0.0}});
  EXPECT_THROW(s.orbit(1), ParameterError);
  OrbitSystem t;
  t.add(1.0);
  t.add(1e-3);
  EXPECT_THROW(t.orbit(1), ParameterError);
}

// test_particle.py: test_adding_orbits (every accepted and refused combination).
TEST(OrbitalElementsRebound, AddingOrbits) {
  OrbitSystem s;
  s.add(1.0);
  s.add(1e-3, OrbitGiven{.a = 1.0});
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.e = 0.1}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 1.0, .e = 0.1, .omega = 0.1, .pomega = 0.1}),
               ParameterError);
  for (double inc : {0.1, -0.1}) {
    s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .inc = inc, .pomega = 0.1});
    s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .inc = inc, .theta = 0.1});
    s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .inc = inc, .l = 0.1});
  }
  s.add(1e-3, OrbitGiven{.P = 2.0, .e = 0.1, .inc = -2.1, .pomega = 0.1});
  s.add(1e-3, OrbitGiven{.P = 2.0, .e = 0.1, .inc = -2.1, .pomega = 0.1, .f = 0.2});
  s.add(1e-3, OrbitGiven{.P = 2.0, .e = 0.1, .inc = -2.1, .pomega = 0.1, .T = 0.2});
  s.add(1e-3, OrbitGiven{.P = 2.0, .e = 0.1, .inc = -2.1, .pomega = 0.1, .theta = 0.2});
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .f = 0.1, .M = 0.1}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .f = 0.1, .l = 0.1}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.1, .f = 0.1, .theta = 0.1}),
               ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 3.0, .e = 1.0}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 3.0, .e = 1.1}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 3.0, .P = 1.1}), ParameterError);
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = 3.0, .e = -0.1}), ParameterError);
  s.add(1e-3, OrbitGiven{.a = -3.0, .e = 1.4});
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = -3.0, .e = 0.9}), ParameterError);
  s.add(1e-3, OrbitGiven{.a = -3.0, .e = 1.4, .f = 0.1});
  EXPECT_THROW(s.add(1e-3, OrbitGiven{.a = -3.0, .e = 1.4, .f = 3.1}), ParameterError);
  EXPECT_EQ(s.p.size(), 14u);
  // The period given is the period read (Kepler's third law with μ = G (M + m)).
  EXPECT_NEAR(s.orbit(8).P, 2.0, kReboundTolerance);
  EXPECT_NEAR(s.orbit(12).a, -3.0, kReboundTolerance);
  EXPECT_NEAR(s.orbit(13).f, 0.1, kReboundTolerance);
}

// test_particle.py: test_sim_orbits.
TEST(OrbitalElementsRebound, SimOrbits) {
  OrbitSystem s;
  s.add(1.0);
  s.add(1e-3, OrbitGiven{.a = 1.0, .e = 0.2, .inc = 0.3});
  s.add(1e-3, OrbitGiven{.a = 2.0, .e = 0.2, .inc = 0.3});
  for (std::size_t i : {1u, 2u}) {
    EXPECT_NEAR(s.orbit(i).a, static_cast<double>(i), kReboundTightTolerance);
    EXPECT_NEAR(s.orbit(i).e, 0.2, kReboundTightTolerance);
    EXPECT_NEAR(s.orbit(i).inc, 0.3, kReboundTightTolerance);
  }
}

// test_particle.py: test_orbits (a test particle on a circle of radius 1 about a mass of 1).
TEST(OrbitalElementsRebound, Orbits) {
  OrbitSystem s;
  s.add(1.0);
  s.add(0.0, OrbitGiven{.a = 1.0});
  EXPECT_THROW(s.orbit(0), ParameterError);  // the first body has no Jacobi primary
  const Orbit o = s.orbit(1);
  for (double one : {o.a, o.d, o.v, o.h, o.n}) EXPECT_NEAR(one, 1.0, kReboundTightTolerance);
  EXPECT_NEAR(o.P, 2.0 * pi, kReboundTightTolerance);
  for (double angle : {o.e, o.f, o.inc, o.omega, o.pomega, o.Omega, o.M, o.E, o.l, o.theta, o.T})
    EXPECT_NEAR(angle, 0.0, kReboundTightTolerance);
}

// test_simulation.py: test_orbits (t = 1.246; Jacobi, heliocentric and barycentric primaries).
TEST(OrbitalElementsRebound, SimulationOrbits) {
  OrbitSystem s;
  s.time = 1.246;
  s.add(1.0);
  s.add(1e-3, OrbitGiven{.a = 1.0, .e = 0.01, .inc = 0.1, .omega = 0.02, .M = 0.04});
  for (const Primary primary : {Primary{}, Primary{PrimaryKind::body, 0}}) {
    const Orbit o = s.orbit(1, primary);
    EXPECT_NEAR(o.a, 1.0, kReboundTightTolerance);
    EXPECT_NEAR(o.e, 0.01, kReboundTightTolerance);
    EXPECT_NEAR(o.omega, 0.02, kReboundTolerance);
    EXPECT_NEAR(o.inc, 0.1, kReboundTightTolerance);
  }
  EXPECT_NEAR(s.orbit(1, Primary{PrimaryKind::barycentre}).a, 1.0, 1e-2);
}

}  // namespace
}  // namespace orrery
