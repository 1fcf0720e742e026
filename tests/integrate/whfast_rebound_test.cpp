// SPDX-License-Identifier: MIT
// REBOUND's own tests of WHFast in Jacobi coordinates (rebound/tests/test_whfast.py, safe mode,
// the default kernel), translated with their tolerances: sim.add(m=…, a=…, e=…) adds about the
// Jacobi primary as orbit_test::OrbitSystem does; sim.integrate(t) lands on t; sim.steps(n)
// takes n steps of dt; REBOUND's sim.energy() is Diagnostics::energy_total.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "integrate/planetary_run.hpp"
#include "physics/orbit_system.hpp"

namespace orrery {
namespace {

using planetary_test::integrate_to;
using planetary_test::planetary_simulation;

double energy_change(double e0, double e1) { return std::abs((e0 - e1) / e1); }

// test_whfast_outersolarsystem
TEST(WhfastRebound, OuterSolarSystem) {
  Simulation<double> sim = planetary_simulation(planetary_test::rebound_outer_solar_system(),
                                                "whfast", 0.005 * 12. * 2. * 3.1415);
  const double e0 = sim.diagnostics().energy_total;
  integrate_to(sim, 1000. * 2. * 3.1415);
  EXPECT_LT(energy_change(e0, sim.diagnostics().energy_total), 2.4e-8);
}

// test_whfast_veryhyperbolic, against the hyperbola rather than REBOUND's straight line
// (tests/physics/kepler_drift_test.cpp, AVeryFastBodyIsSlowedByGravity, says why): REBOUND's
// ys = 1.234567·10⁵ to 10⁻¹⁵ becomes the body's y on its orbit to 10⁻¹³.
TEST(WhfastRebound, VeryHyperbolic) {
  Particles<double> p;
  p.resize(2);
  p.mass = {1.0, 0.0};
  p.x[1] = 1.0, p.vy[1] = 100000.;
  p.id = {0, 1};
  Simulation<double> sim = planetary_simulation(p, "whfast", 1.234567);
  planetary_test::steps(sim, 1);
  const double y = sim.particles().y[1], ys = 123456.69998765713;
  EXPECT_NEAR((y - ys) / ys, 0., 1e-13);
}

// test_whfast_hyperbolic
TEST(WhfastRebound, Hyperbolic) {
  orbit_test::OrbitSystem s;
  s.add(1.);
  s.add(1e-3, OrbitGiven{.a = -1., .e = 2.5});
  const double yr = -s.orbit(1).P;
  Simulation<double> sim = planetary_simulation(s.p, "whfast", 0.00512 * yr);
  const double e0 = sim.diagnostics().energy_total;
  integrate_to(sim, 1e2 * yr);
  EXPECT_LT(energy_change(e0, sim.diagnostics().energy_total), 1e-14);
}

// test_whfast
TEST(WhfastRebound, TwoPlanets) {
  orbit_test::OrbitSystem s;
  s.add(1.);
  s.add(1e-3, OrbitGiven{.a = 1., .e = .1});
  s.add(1e-3, OrbitGiven{.a = 3., .e = 0.1});
  const double jupyr = 2. * std::numbers::pi;
  Simulation<double> sim = planetary_simulation(s.p, "whfast", 0.005123 * jupyr);
  const double e0 = sim.diagnostics().energy_total;
  integrate_to(sim, 1e3 * jupyr);
  EXPECT_NE(e0, 0.);
  EXPECT_LT(energy_change(e0, sim.diagnostics().energy_total), 1.2e-8);
}

// TestIntegratorWHFastBackAndForth: 100 steps forwards, 100 with dt negated.
void back_and_forth(double a, double e, double period_sign, double step_fraction,
                    double tolerance) {
  orbit_test::OrbitSystem s;
  s.add(1.);
  s.add(1e-3, OrbitGiven{.a = a, .e = e, .inc = 0.1, .Omega = 0.4, .omega = 0.3});
  const double x0 = s.p.x[1], v0 = s.p.vx[1];
  const double yr = period_sign * s.orbit(1).P;
  Simulation<double> sim = planetary_simulation(s.p, "whfast", step_fraction * yr);
  const double e0 = sim.diagnostics().energy_total;
  for (int k = 0; k < 100; ++k) sim.step(step_fraction * yr);
  for (int k = 0; k < 100; ++k) sim.step(-step_fraction * yr);
  const double x1 = sim.particles().x[1], v1 = sim.particles().vx[1];
  EXPECT_LT(energy_change(e0, sim.diagnostics().energy_total), tolerance);
  EXPECT_LT(std::abs((x0 - x1) / x1), tolerance);
  EXPECT_LT(std::abs((v0 - v1) / v1), tolerance);
}

// TestIntegratorWHFastBackAndForth.test_whfast_hyperbolic
TEST(WhfastRebound, BackAndForthHyperbolic) { back_and_forth(-1., 2.5, -1., 0.0512, 1e-14); }

// TestIntegratorWHFastBackAndForth.test_whfast_eccentric
TEST(WhfastRebound, BackAndForthEccentric) { back_and_forth(1.4, 0.0125, 1., 0.0512, 1e-13); }

}  // namespace
}  // namespace orrery
