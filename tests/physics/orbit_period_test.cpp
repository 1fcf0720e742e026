// SPDX-License-Identifier: MIT
// A body placed by its elements and integrated by orrery's Simulation for one period
// P = 2π √(a³ / (G (M + m))), as orbit_about() reports it, comes back to where it started
// (relative to its primary), and its elements are the ones it was given: the elements, the
// period and the gravity of the engine agree.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "orbit_system.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {
namespace {

// IAS15 at its default tolerance keeps a Kepler orbit of e ≤ 0.7 to ~10⁻¹³ of a over one period;
// a period wrong by one part in 10⁸, or a velocity off the orbit, moves the body by more than
// this.
constexpr double kReturnTolerance = 1e-9;

Vec3d relative(const Particles<double>& p, bool velocity) {
  return velocity ? Vec3d{p.vx[1] - p.vx[0], p.vy[1] - p.vy[0], p.vz[1] - p.vz[0]}
                  : Vec3d{p.x[1] - p.x[0], p.y[1] - p.y[0], p.z[1] - p.z[0]};
}

TEST(OrbitPeriod, AKeplerOrbitReturnsAfterOnePeriod) {
  struct Case {
    double e, inc, f;
  };
  for (const Case c : {Case{0.0, 0.0, 0.0}, Case{0.3, 0.4, 2.0}, Case{0.7, 2.8, 5.0}}) {
    SCOPED_TRACE(c.e);
    orbit_test::OrbitSystem s;
    s.g = 0.5;
    s.add(1.5);
    s.add(3e-3, OrbitGiven{.a = 1.3, .e = c.e, .inc = c.inc, .Omega = 0.6, .omega = 1.1, .f = c.f});
    const Orbit start = s.orbit(1);
    const double period = start.P;
    // Kepler's third law, T = 2π √(a³/(G M)), to the rounding of a read back from the state.
    constexpr double kThirdLaw = 1e-12;
    EXPECT_NEAR(period, 2 * std::numbers::pi * std::sqrt(1.3 * 1.3 * 1.3 / (0.5 * 1.503)),
                kThirdLaw);

    SimClock clock;
    clock.dt = period / 200.0;
    Simulation<double> sim(s.p,
                           make_force_engine<double>("direct", EngineOptions{.g = s.g, .threads = 1}),
                           make_array_stepper<double>("ias15"), clock);
    while (sim.clock().remaining(period) > 0.0) {
      const double left = sim.clock().remaining(period);
      if (left <= sim.clock().dt)
        sim.step_onto(period, left);
      else
        sim.step(sim.clock().dt);
    }
    const Particles<double>& end = sim.particles();
    const Vec3d dr = relative(end, false) - relative(s.p, false);
    const Vec3d dv = relative(end, true) - relative(s.p, true);
    EXPECT_LE(std::sqrt(norm2(dr)), kReturnTolerance * 1.3);
    EXPECT_LE(std::sqrt(norm2(dv)), kReturnTolerance * std::sqrt(norm2(relative(s.p, true))));

    orbit_test::OrbitSystem after = s;
    after.p = end;
    after.time = period;
    const Orbit o = after.orbit(1);
    EXPECT_NEAR(o.a, 1.3, kReturnTolerance);
    EXPECT_NEAR(o.e, c.e, kReturnTolerance);
    EXPECT_NEAR(o.inc, c.inc, kReturnTolerance);
    EXPECT_NEAR(std::remainder(o.theta - start.theta, 2 * std::numbers::pi), 0.0, kReturnTolerance);
    // A period later the pericentre passage is one period later, or the same one (a circle's
    // pericentre is nowhere).
    if (c.e > 0.0) {
      EXPECT_NEAR(std::remainder(o.T - start.T, period), 0.0, kReturnTolerance * period);
    }
  }
}

}  // namespace
}  // namespace orrery
