// SPDX-License-Identifier: MIT
// Collisions (nbody/collisions.hpp) and the exits (nbody/step_events.hpp): a merge keeps mass
// and momentum to rounding, a head-on pair merges at the time of the radial Kepler fall, a bounce
// keeps momentum and kinetic energy, and REBOUND's collision and exit tests translated.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/collisions.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/step_events.hpp"

namespace orrery {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
// A merge rounds each momentum component a few times (two products, a sum, a division and the
// product m v read back): a few ulps of the largest term.
constexpr double kMomentumUlps = 8;
// The bounce's kinetic energy is rounded in a dozen operations per body.
constexpr double kEnergyUlps = 32;

Simulation<double> simulation_of(Particles<double> p, const std::string& integrator, double dt,
                                 double g = 1.0) {
  SimClock clock;
  clock.dt = dt;
  return Simulation<double>(std::move(p),
                            make_force_engine<double>("direct", EngineOptions{.g = g}),
                            make_array_stepper<double>(integrator), clock);
}

Particles<double> bodies(std::size_t n) {
  Particles<double> p;
  p.resize(n);
  p.radius.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) p.id[i] = i;
  return p;
}

Vec3d momentum(const Particles<double>& p) {
  Vec3d s{0, 0, 0};
  for (std::size_t i = 0; i < p.size(); ++i)
    s = s + Vec3d{p.mass[i] * p.vx[i], p.mass[i] * p.vy[i], p.mass[i] * p.vz[i]};
  return s;
}

double kinetic(const Particles<double>& p) {
  double k = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    k += 0.5 * p.mass[i] * (p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
  return k;
}

TEST(Collisions, AMergeKeepsMassAndMomentumToRounding) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Particles<double> p = bodies(3);
    for (std::size_t i = 0; i < 3; ++i) {
      p.mass[i] = std::exp(3 * u(rng));
      p.x[i] = u(rng), p.y[i] = u(rng), p.z[i] = u(rng);
      p.vx[i] = u(rng), p.vy[i] = u(rng), p.vz[i] = u(rng);
      p.radius[i] = 0.1 + 0.1 * u(rng);
    }
    const double m0 = p.mass[0], m2 = p.mass[2];
    const Vec3d before = momentum(p);
    double scale = 0;
    for (std::size_t i = 0; i < 3; ++i)
      scale += p.mass[i] * (std::abs(p.vx[i]) + std::abs(p.vy[i]) + std::abs(p.vz[i]));
    const double r0 = p.radius[0], r2 = p.radius[2];
    merge_bodies(p, 0, 2);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p.mass[0], m0 + m2);  // one addition: exact to its rounding
    EXPECT_EQ(p.id[1], 1u);
    const Vec3d after = momentum(p);
    EXPECT_LE(std::sqrt(norm2(after - before)), kMomentumUlps * kEps * scale) << "trial " << trial;
    EXPECT_NEAR(std::pow(p.radius[0], 3), std::pow(r0, 3) + std::pow(r2, 3), 1e-14);
  }
}

// Two bodies of mass 1/2 at rest 2 apart, radii 0.05: they fall towards each other as the
// radial Kepler orbit of GM = 1 from r0 = 2, and touch at r = 0.1 at
//   t = (r0³ / 2GM)^{1/2} [ (x(1 − x))^{1/2} + arccos x^{1/2} ],  x = r / r0.
// IAS15 follows the fall to ~10⁻¹⁴; the merge comes at the end of the step that spans t.
TEST(Collisions, AHeadOnPairMergesAtTheTimeOfItsFall) {
  Particles<double> p = bodies(2);
  p.mass = {0.5, 0.5};
  p.x = {-1.0, 1.0};
  p.radius = {0.05, 0.05};
  Simulation<double> sim = simulation_of(p, "ias15", 1e-3);
  const double e0 = sim.diagnostics().energy_total;  // −G m² / 2
  const double x = 0.1 / 2.0;
  const double t_contact = std::sqrt(8.0 / 2.0) * (std::sqrt(x * (1 - x)) + std::acos(std::sqrt(x)));
  const StepEvents merge{.collisions = CollisionRule::merge};
  double merged_at = -1, last_step = 0;
  while (sim.clock().time() < 4.0 && merged_at < 0) {
    const StepReport<double> r = sim.step(sim.clock().dt);
    if (!r.accepted) continue;
    last_step = r.taken;
    if (apply_step_events(sim, merge, r.taken).merged > 0) merged_at = sim.clock().time();
  }
  // IAS15's error in the time of the fall (ε_b = 10⁻⁹), far below its steps here.
  constexpr double kIas15TimeError = 1e-9;
  EXPECT_GE(merged_at, t_contact - kIas15TimeError);
  EXPECT_LT(merged_at - last_step, t_contact + kIas15TimeError);
  ASSERT_EQ(sim.size(), 1u);
  const Particles<double>& q = sim.particles();
  EXPECT_EQ(q.mass[0], 1.0);
  // Symmetric to the last bit: the merged body rests at the centre of mass.
  EXPECT_EQ(q.vx[0], 0.0);
  EXPECT_EQ(q.x[0], 0.0);
  EXPECT_NEAR(q.radius[0], std::cbrt(2 * 0.05 * 0.05 * 0.05), 1e-16);
  // The energy the merge took is booked: E + offset stays the initial one.
  EXPECT_NEAR(e0, -0.125, 1e-16);
  EXPECT_NEAR(sim.diagnostics().energy_total, e0, 1e-10);
  EXPECT_NEAR(sim.energy_offset(), e0, 1e-10);  // all of it: no body is left to hold any
}

TEST(Collisions, ABounceKeepsMomentumAndKineticEnergy) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int bounced = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Particles<double> p = bodies(2);
    p.mass = {std::exp(2 * u(rng)), std::exp(2 * u(rng))};
    p.x = {0.0, u(rng)};
    p.y = {0.0, u(rng)};
    p.z = {0.0, u(rng)};
    p.vx = {u(rng), u(rng)};
    p.vy = {u(rng), u(rng)};
    p.vz = {u(rng), u(rng)};
    const Vec3d before = momentum(p);
    const double k0 = kinetic(p);
    const double scale =
        p.mass[0] * (std::abs(p.vx[0]) + std::abs(p.vy[0]) + std::abs(p.vz[0])) +
        p.mass[1] * (std::abs(p.vx[1]) + std::abs(p.vy[1]) + std::abs(p.vz[1]));
    const bool approaching = (p.vx[0] - p.vx[1]) * (p.x[0] - p.x[1]) +
                                 (p.vy[0] - p.vy[1]) * (p.y[0] - p.y[1]) +
                                 (p.vz[0] - p.vz[1]) * (p.z[0] - p.z[1]) <
                             0;
    EXPECT_EQ(bounce_bodies(p, 0, 1), approaching);
    if (!approaching) continue;
    ++bounced;
    EXPECT_LE(std::sqrt(norm2(momentum(p) - before)), kMomentumUlps * kEps * scale);
    EXPECT_NEAR(kinetic(p), k0, kEnergyUlps * kEps * k0);
    // Now they separate along the line of centres.
    EXPECT_GE((p.vx[0] - p.vx[1]) * (p.x[0] - p.x[1]) + (p.vy[0] - p.vy[1]) * (p.y[0] - p.y[1]) +
                  (p.vz[0] - p.vz[1]) * (p.z[0] - p.z[1]),
              -1e-14);
  }
  EXPECT_GT(bounced, 50);
}

// Equal masses in an elastic head-on collision exchange their velocities; through a Simulation
// (weak gravity, G = 10⁻⁶) the total energy with the potential stays where it was.
TEST(Collisions, EqualMassesBouncingHeadOnExchangeVelocities) {
  Particles<double> p = bodies(2);
  p.mass = {1.0, 1.0};
  p.x = {-1.0, 1.0};
  p.vx = {0.5, -0.25};
  p.radius = {0.1, 0.1};
  const double dt = 1e-3;
  Simulation<double> sim = simulation_of(p, "leapfrog", dt, 1e-6);
  const double e0 = sim.diagnostics().energy_total;
  const StepEvents bounce{.collisions = CollisionRule::bounce};
  std::int64_t bounces = 0;
  while (sim.clock().time() < 4.0) {
    sim.step(dt);
    bounces += apply_step_events(sim, bounce, dt).bounced;
  }
  EXPECT_EQ(bounces, 1);
  const Particles<double>& q = sim.particles();
  EXPECT_NEAR(q.vx[0], -0.25, 1e-5);  // gravity's pull at G = 10⁻⁶ over 4 time units
  EXPECT_NEAR(q.vx[1], 0.5, 1e-5);
  EXPECT_NEAR(sim.diagnostics().energy_total, e0, 1e-12);
  EXPECT_EQ(sim.energy_offset(), 0.0);  // a bounce takes no energy
}

// From rebound/tests/test_collisions.py, TestCollisions.test_direct_remove_one: 50 bodies of
// mass 1 and radius 100 in a box of ±2 overlap each other; REBOUND's resolve removes one or
// both of each pair, and after two steps fewer than 25 are left. Here merge removes one of
// each pair, and every body merges into the first in one search.
TEST(CollisionsRebound, DirectRemoveOne) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  Particles<double> p = bodies(50);
  for (std::size_t i = 0; i < 50; ++i) {
    p.mass[i] = 1.0;
    p.radius[i] = 100.0;
    p.x[i] = u(rng), p.y[i] = u(rng), p.z[i] = u(rng);
  }
  const double total = 50.0;
  const Vec3d p0 = momentum(p);
  Simulation<double> sim = simulation_of(p, "leapfrog", 0.001);
  const StepEvents merge{.collisions = CollisionRule::merge};
  for (int k = 0; k < 2; ++k) {
    sim.step(0.001);
    apply_step_events(sim, merge, 0.001);
  }
  EXPECT_LT(sim.size(), 25u);
  EXPECT_EQ(sim.size(), 1u);
  EXPECT_EQ(sim.particles().mass[0], total);
  EXPECT_LE(std::sqrt(norm2(momentum(sim.particles()) - p0)), 1e-12);
}

// From rebound/tests/test_collisions.py, TestLineCollisions (and TestLineTreeCollisions, whose
// expectations are the same): two massless bodies of radius 1, a step of 10, REBOUND's default
// resolve (halt: here `stop`). The line search finds a pair that passes through each other within
// the step, that overlapped at its start or overlaps at its end, and not one that moves apart.
struct LineCase {
  const char* name;
  double x1, vx1;
  bool found;
};

TEST(CollisionsRebound, LineFindsCollisionsWithinAStep) {
  const LineCase cases[] = {{"test_line_find", 3.0, -1.0, true},
                            {"test_line_find_overlap1", 1.0, -1.0, true},
                            {"test_line_find_overlap2", 11.0, -1.0, true},
                            {"test_line_miss", 2.1, 1.0, false}};
  for (const LineCase& c : cases) {
    Particles<double> p = bodies(2);
    p.radius = {1.0, 1.0};
    p.x = {0.0, c.x1};
    p.vx = {0.0, c.vx1};
    Simulation<double> sim = simulation_of(p, "leapfrog", 10.0);
    sim.step(10.0);
    const StepEvents line{.collisions = CollisionRule::stop, .search = CollisionSearch::line};
    const EventsDone done = apply_step_events(sim, line, 10.0);
    EXPECT_EQ(done.stop.has_value(), c.found) << c.name;
    if (done.stop) {
      EXPECT_EQ(done.stop->reason, StopReason::collision);
      EXPECT_NE(done.stop->text.find("bodies 0 and 1"), std::string::npos) << done.stop->text;
    }
  }
  // The direct search, at the end of the step only, finds only the pair that overlaps there.
  Particles<double> p = bodies(2);
  p.radius = {1.0, 1.0};
  p.x = {0.0, 3.0};
  p.vx = {0.0, -1.0};
  Simulation<double> sim = simulation_of(p, "leapfrog", 10.0);
  sim.step(10.0);
  EXPECT_FALSE(
      apply_step_events(sim, StepEvents{.collisions = CollisionRule::stop}, 10.0).stop);
}

// From rebound/tests/test_simulation.py, TestSimulation.test_escape and test_encounter: a star
// of mass 1 and a planet of 10⁻³ at a = 1, e = 0.01 (at r ≈ 0.99, here at pericentre): an exit
// distance of 0.1 from the centre of mass stops at the first step as an escape, a minimum
// distance of 1 as an encounter, with the bodies and the time named.
TEST(CollisionsRebound, EscapeAndEncounter) {
  Particles<double> p = bodies(2);
  p.radius.clear();
  p.mass = {1.0, 1e-3};
  const double rp = 0.99, m = 1.001;
  const double vp = std::sqrt(m * (1 + 0.01) / rp);
  p.x = {-rp * 1e-3 / m, rp * 1.0 / m};
  p.vy = {-vp * 1e-3 / m, vp * 1.0 / m};
  for (const bool escape : {true, false}) {
    Simulation<double> sim = simulation_of(p, "leapfrog", 0.001);
    sim.step(0.001);
    StepEvents e;
    (escape ? e.exit_max_distance : e.exit_min_distance) = escape ? 0.1 : 1.0;
    const EventsDone done = apply_step_events(sim, e, 0.001);
    ASSERT_TRUE(done.stop.has_value());
    EXPECT_EQ(done.stop->reason, escape ? StopReason::escape : StopReason::encounter);
    EXPECT_EQ(done.stop->id_a, escape ? 1u : 0u);
    EXPECT_EQ(done.stop->time, 0.001);
    EXPECT_NE(done.stop->text.find(escape ? "escape: body 1" : "bodies 0 and 1"),
              std::string::npos)
        << done.stop->text;
  }
}

TEST(Collisions, NoRadiiNoContacts) {
  Particles<double> p = bodies(2);
  p.radius.clear();
  p.x = {0.0, 0.0};
  EXPECT_TRUE(find_contacts(p, CollisionSearch::direct, 1.0).empty());
}

}  // namespace
}  // namespace orrery
