// SPDX-License-Identifier: MIT
// Test particles (REBOUND's m = 0): bodies that feel the massive ones and pull none of them.
// With whfast and leapfrog (fixed steps) the massive bodies' trajectories are the same to the
// bit with and without test particles; with ias15 the test particles take part in the choice of
// the step, so the massive bodies agree to the method's accuracy. A test particle follows the
// path of a body of tiny mass. Direct engine: the massive bodies' accelerations keep their bits.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "integrate/planetary_run.hpp"
#include "physics/orbit_system.hpp"

namespace orrery {
namespace {

using planetary_test::integrate_to;
using planetary_test::planetary_simulation;

// Sun, Jupiter and Saturn (REBOUND's values) and, where `extra_mass` ≥ 0, three more bodies of
// that mass on orbits inside and beyond them, about the Sun.
Particles<double> with_test_particles(double extra_mass) {
  Particles<double> p = planetary_test::rebound_outer_solar_system();
  p.resize(3);
  if (extra_mass < 0) return p;
  orbit_test::OrbitSystem s;
  s.p = p;
  // Inside Jupiter's orbit and beyond Saturn's: away from both, so that nothing chaotic
  // amplifies a difference of 10⁻¹² over the run.
  for (const double a : {2.0, 3.0, 20.0})
    s.add(extra_mass, OrbitGiven{.a = a, .e = 0.1, .inc = 0.05, .l = a}, Primary{PrimaryKind::body, 0});
  return s.p;
}

double largest_offset(const Particles<double>& a, const Particles<double>& b, std::size_t from,
                      std::size_t to) {
  double worst = 0;
  for (std::size_t i = from; i < to; ++i)
    worst = std::max(worst, std::hypot(a.x[i] - b.x[i], a.y[i] - b.y[i], a.z[i] - b.z[i]));
  return worst;
}

TEST(TestParticles, LeaveTheMassiveBodiesBitForBitWithFixedSteps) {
  for (const char* integrator : {"whfast", "leapfrog"}) {
    SCOPED_TRACE(integrator);
    const double t = 20 * 2 * std::numbers::pi * 11.86;
    Simulation<double> alone = planetary_simulation(with_test_particles(-1), integrator, 0.5);
    Simulation<double> with = planetary_simulation(with_test_particles(0.0), integrator, 0.5);
    integrate_to(alone, t);
    integrate_to(with, t);
    const Particles<double>& a = alone.particles();
    const Particles<double>& b = with.particles();
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(a.x[i], b.x[i]) << i;
      EXPECT_EQ(a.y[i], b.y[i]) << i;
      EXPECT_EQ(a.vz[i], b.vz[i]) << i;
    }
  }
}

TEST(TestParticles, FollowTheirPathWithAnyIntegrator) {
  // Bodies of 10⁻¹⁵ M_sun in place of the test particles move everything by ~10⁻¹¹ au over these
  // 20 orbits of Jupiter (their momentum carries the barycentre: measured 9.5·10⁻⁹ au for
  // 10⁻¹² M_sun, linear in the mass), so with the same steps (whfast, leapfrog) a test particle
  // and such a body agree to 10⁻¹⁰; ias15, whose steps the test particles help choose, agrees to
  // its accuracy, and keeps the massive bodies to it.
  constexpr double kTinyMass = 1e-15;
  constexpr double kFixedStepAgreement = 1e-10;
  constexpr double kIas15Agreement = 1e-8;
  const double t = 20 * 2 * std::numbers::pi * 11.86;
  for (const char* integrator : {"whfast", "leapfrog", "ias15"}) {
    SCOPED_TRACE(integrator);
    Simulation<double> test = planetary_simulation(with_test_particles(0.0), integrator, 0.5);
    Simulation<double> tiny = planetary_simulation(with_test_particles(kTinyMass), integrator, 0.5);
    Simulation<double> alone = planetary_simulation(with_test_particles(-1), integrator, 0.5);
    integrate_to(test, t);
    integrate_to(tiny, t);
    integrate_to(alone, t);
    const double bound = std::string(integrator) == "ias15" ? kIas15Agreement : kFixedStepAgreement;
    EXPECT_LT(largest_offset(test.particles(), tiny.particles(), 0, 6), bound);
    EXPECT_LT(largest_offset(test.particles(), alone.particles(), 0, 3), bound);
    // They moved: 20 Jupiter orbits carry the particles at a = 2 and 3 around many times.
    EXPECT_GT(largest_offset(test.particles(), with_test_particles(0.0), 3, 6), 1.0);
  }
}

TEST(TestParticles, DirectEngineKeepsTheMassiveBodiesAccelerations) {
  const Particles<double> alone = with_test_particles(-1);
  const Particles<double> with = with_test_particles(0.0);
  auto accelerations = [](const Particles<double>& p) {
    auto engine = make_force_engine<double>("direct", EngineOptions{.threads = 1});
    engine->set_bodies(p.mass, {});
    std::vector<double> x(p.x);
    x.insert(x.end(), p.y.begin(), p.y.end());
    x.insert(x.end(), p.z.begin(), p.z.end());
    DeviceBuffer<double> xs = engine->device().allocate(x.size()), a = engine->device().allocate(x.size());
    engine->device().copy_to_device(x, xs);
    engine->accelerations(xs, a);
    std::vector<double> out(x.size());
    engine->device().copy_to_host(a, out);
    return out;
  };
  const std::vector<double> a = accelerations(alone), b = accelerations(with);
  const std::size_t n = alone.size(), m = with.size();
  for (std::size_t c = 0; c < 3; ++c)
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(a[c * n + i], b[c * m + i]) << c << " " << i;
  // The test particles feel the Sun: about G M/r² towards it.
  for (std::size_t i = n; i < m; ++i) EXPECT_GT(std::hypot(b[i], b[m + i], b[2 * m + i]), 1e-3);
}

// REBOUND's test_whfast_testparticles.py, create_whfast_testparticle (Jacobi): a star and ten
// test particles (P = 1, e = 0.1, f = i), dt = 0.1, integrate(1): each particle is on its
// Kepler orbit (REBOUND's eps = 2·10⁻¹⁴ between its two ways of running them; here against the
// orbit itself).
TEST(TestParticles, ReboundTestParticlesOnKeplerOrbits) {
  orbit_test::OrbitSystem s;
  s.add(1.0);
  for (int i = 0; i < 10; ++i)
    s.add(0.0, OrbitGiven{.P = 1.0, .e = 0.1, .f = double(i)}, Primary{PrimaryKind::body, 0});
  Simulation<double> sim = planetary_simulation(s.p, "whfast", 1e-1);
  integrate_to(sim, 1.0);
  orbit_test::OrbitSystem later = s;
  later.p = sim.particles();
  later.time = 1.0;
  const double eps = 2e-14;
  for (int i = 1; i <= 10; ++i) {
    const Orbit start = s.orbit(i, Primary{PrimaryKind::body, 0});
    const Orbit end = later.orbit(i, Primary{PrimaryKind::body, 0});
    EXPECT_NEAR(end.a, start.a, eps) << i;
    EXPECT_NEAR(end.e, start.e, eps) << i;
    // One whole period later: the same place.
    EXPECT_NEAR(std::remainder(end.f - start.f, 2 * std::numbers::pi), 0.0, 10 * eps) << i;
  }
}

}  // namespace
}  // namespace orrery
