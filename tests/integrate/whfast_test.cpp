// SPDX-License-Identifier: MIT
// WHFast (integrate/wisdom_holman/array_stepper.hpp): a two-body orbit is the Kepler drift's,
// exact to rounding for any step; the outer Solar System's energy error stays bounded over 10⁴
// orbits of Jupiter; the error against IAS15 falls as h²; the corrector lowers it; a run resumed
// from its particles continues bit for bit (the stepper keeps no state).
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "integrate/planetary_run.hpp"
#include "orrery/integrate/wisdom_holman/array_stepper.hpp"
#include "physics/orbit_system.hpp"

namespace orrery {
namespace {

using planetary_test::integrate_to;
using planetary_test::planetary_simulation;
using planetary_test::rebound_outer_solar_system;

double relative_energy_error(double e0, double e1) { return std::abs((e1 - e0) / e0); }

// Relative position and velocity of body 1 about body 0.
std::array<double, 6> relative_state(const Particles<double>& p) {
  return {p.x[1] - p.x[0],   p.y[1] - p.y[0],   p.z[1] - p.z[0],
          p.vx[1] - p.vx[0], p.vy[1] - p.vy[0], p.vz[1] - p.vz[0]};
}

TEST(Whfast, ATwoBodyOrbitIsExactForAnyStep) {
  // Each step is two drifts on the exact conic and a kick that cancels to rounding; the rounding
  // of each step moves a by ~10⁻¹⁶, which shifts the phase by that much per radian travelled:
  // after 50 steps of any size the orbit is where the elements put it, to 10⁻¹² per radian
  // (50 steps of 2.9 periods cover 911 radians and end 2·10⁻¹⁰ from it).
  constexpr double kTwoBodyTolerancePerRadian = 1e-12;
  struct Case {
    double a, e, fraction;
  };
  for (const Case c : {Case{1.0, 0.1, 0.01}, Case{1.0, 0.1, 0.37}, Case{1.0, 0.6, 2.9},
                       Case{2.0, 0.95, 0.05}, Case{-1.0, 2.5, 0.01}}) {
    SCOPED_TRACE(testing::Message() << "a " << c.a << " e " << c.e << " h/P " << c.fraction);
    orbit_test::OrbitSystem s;
    s.add(1.0);
    s.add(1e-3, OrbitGiven{.a = c.a, .e = c.e, .inc = 0.3, .Omega = 1.0, .omega = 0.5, .M = 0.2});
    const double mu = 1.001;
    const double n = std::sqrt(mu / std::abs(c.a * c.a * c.a));
    const double h = c.fraction * 2 * std::numbers::pi / n;
    Simulation<double> sim = planetary_simulation(s.p, "whfast", h);
    planetary_test::steps(sim, 50);
    orbit_test::OrbitSystem expected;
    expected.add(1.0);
    expected.add(1e-3, OrbitGiven{.a = c.a, .e = c.e, .inc = 0.3, .Omega = 1.0, .omega = 0.5,
                                  .M = 0.2 + n * 50 * h});
    const std::array<double, 6> got = relative_state(sim.particles());
    const std::array<double, 6> want = relative_state(expected.p);
    const double r = std::hypot(want[0], want[1], want[2]);
    const double v = std::hypot(want[3], want[4], want[5]);
    const double radians = std::max(1.0, n * 50 * h);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got[k], want[k], kTwoBodyTolerancePerRadian * radians * r);
      EXPECT_NEAR(got[k + 3], want[k + 3], kTwoBodyTolerancePerRadian * radians * v);
    }
  }
}

TEST(Whfast, OuterSolarSystemEnergyErrorStaysBounded) {
  // REBOUND's step (≈ 1/200 of Jupiter's period), 10⁴ orbits of Jupiter. A symplectic map's
  // energy error oscillates about a constant: the largest error of the last thousand orbits is
  // no larger than twice that of the first thousand (a drift linear in time would make it ten
  // times as large; a random walk of rounding errors three times), and every error stays within
  // 3·10⁻⁸: REBOUND bounds the first 84 orbits by 2.4·10⁻⁸ (test_whfast_outersolarsystem), and
  // the oscillation, modulated by the planets' secular cycles, reaches 2.5·10⁻⁸ in 10⁴ orbits.
  constexpr double kOscillationBound = 3e-8;
  constexpr double kNoGrowth = 2.0;
  const Particles<double> p = rebound_outer_solar_system();
  const double dt = 0.005 * 12.0 * 2.0 * 3.1415;
  const double jupiter_period = 2 * std::numbers::pi * 11.86;
  Simulation<double> sim = planetary_simulation(p, "whfast", dt);
  const double e0 = sim.diagnostics().energy_total;
  double first = 0, last = 0;
  constexpr int kBlocks = 100;  // of 100 orbits each
  for (int b = 1; b <= kBlocks; ++b) {
    integrate_to(sim, b * 100 * jupiter_period);
    const double err = relative_energy_error(e0, sim.diagnostics().energy_total);
    EXPECT_LT(err, kOscillationBound);
    if (b <= 10) first = std::max(first, err);
    if (b > 90) last = std::max(last, err);
  }
  EXPECT_GT(first, 0.0);
  EXPECT_LE(last, kNoGrowth * first) << "first thousand orbits " << first << ", last " << last;
  std::printf("whfast outer Solar System, 10^4 Jupiter orbits: largest |dE/E| %.3g in the first "
              "thousand, %.3g in the last\n",
              first, last);
}

// Jupiter and Saturn about the Sun (REBOUND's outer Solar System, first three bodies).
Particles<double> jupiter_saturn() {
  Particles<double> p = rebound_outer_solar_system();
  p.resize(3);
  return p;
}

double position_error(const Particles<double>& a, const Particles<double>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::hypot(a.x[i] - b.x[i], a.y[i] - b.y[i], a.z[i] - b.z[i]));
  return e;
}

TEST(Whfast, ErrorFallsAsTheSquareOfTheStep) {
  // Against IAS15 over ten Jupiter orbits; each halving of h divides the position error by
  // 2² = 4, within 10 % (the O(ε h⁴) terms and IAS15's own 10⁻¹³).
  constexpr double kOrderTolerance = 0.1;
  const Particles<double> p = jupiter_saturn();
  const double t = 10 * 2 * std::numbers::pi * 11.86;
  Simulation<double> reference = planetary_simulation(p, "ias15", 1.0);
  integrate_to(reference, t);
  std::vector<double> errors;
  for (const double steps_per_year : {2.0, 4.0, 8.0, 16.0}) {
    Simulation<double> sim = planetary_simulation(p, "whfast", 2 * std::numbers::pi / steps_per_year);
    integrate_to(sim, t);
    errors.push_back(position_error(sim.particles(), reference.particles()));
  }
  std::printf("whfast Jupiter-Saturn position error against ias15 at 2, 4, 8, 16 steps a year:");
  for (const double e : errors) std::printf(" %.3g", e);
  std::printf("\n");
  for (std::size_t k = 1; k < errors.size(); ++k) {
    SCOPED_TRACE(testing::Message() << "errors " << errors[k - 1] << " → " << errors[k]);
    EXPECT_NEAR(errors[k - 1] / errors[k] / 4.0, 1.0, kOrderTolerance);
  }
}

TEST(Whfast, TheCorrectorLowersTheEnergyError) {
  // Jupiter and Saturn at 1/20 of Jupiter's period, 100 Jupiter orbits: each corrector order
  // removes error terms O(ε h^k); the 11th order's error is below a tenth of the plain map's.
  constexpr double kCorrectorGain = 0.1;
  const Particles<double> p = jupiter_saturn();
  const double jupiter_period = 2 * std::numbers::pi * 11.86;
  auto largest_error = [&](int corrector) {
    SimClock clock;
    clock.dt = jupiter_period / 20;
    Simulation<double> sim(p, make_force_engine<double>("direct", EngineOptions{.threads = 1}),
                           std::make_unique<WhfastArrayStepper<double>>(corrector), clock);
    const double e0 = sim.diagnostics().energy_total;
    double worst = 0;
    for (int b = 1; b <= 100; ++b) {
      integrate_to(sim, b * jupiter_period);
      worst = std::max(worst, relative_energy_error(e0, sim.diagnostics().energy_total));
    }
    return worst;
  };
  const double plain = largest_error(0);
  for (const int order : {3, 5, 7, 11, 17}) {
    SCOPED_TRACE(order);
    const double corrected = largest_error(order);
    std::printf("whfast Jupiter-Saturn, 20 steps an orbit: largest |dE/E| %.3g plain, %.3g with "
                "corrector %d\n",
                plain, corrected, order);
    EXPECT_LT(corrected, plain) << "plain " << plain << ", corrected " << corrected;
    if (order >= 11) {
      EXPECT_LT(corrected, kCorrectorGain * plain) << corrected;
    }
  }
}

TEST(Whfast, AResumedRunContinuesBitForBit) {
  const Particles<double> p = rebound_outer_solar_system();
  Simulation<double> whole = planetary_simulation(p, "whfast", 0.4);
  planetary_test::steps(whole, 200);
  Simulation<double> first = planetary_simulation(p, "whfast", 0.4);
  planetary_test::steps(first, 100);
  EXPECT_TRUE(first.stepper_state().empty());
  Simulation<double> second = planetary_simulation(first.particles(), "whfast", 0.4);
  second.load_stepper_state(first.stepper_state());
  planetary_test::steps(second, 100);
  const Particles<double>& a = whole.particles();
  const Particles<double>& b = second.particles();
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.vy, b.vy);
  EXPECT_EQ(a.z, b.z);
}

// The Jacobi coordinates kept between steps (REBOUND's safe_mode = 0), the outer Solar System at
// REBOUND's test step with the 11th-order corrector.
Simulation<double> kept_simulation(const Particles<double>& p, double dt, int corrector = 11) {
  SimClock clock;
  clock.dt = dt;
  return Simulation<double>(p, make_force_engine<double>("direct", EngineOptions{.threads = 1}),
                            std::make_unique<WhfastArrayStepper<double>>(corrector, true), clock);
}

// Kept and safe are one map, C H^n C⁻¹, rounded differently: after 1000 steps (3 Jupiter orbits)
// the positions agree to what 1000 steps of fp64 rounding leave (measured ~10⁻¹³ au), and the
// kept run owes its x and v until they are read.
constexpr double kKeptSafeAgreement = 1e-11;

TEST(Whfast, KeptCoordinatesFollowTheSafeMap) {
  const Particles<double> p = rebound_outer_solar_system();
  const double dt = 0.005 * 12. * 2. * 3.1415;
  SimClock clock;
  clock.dt = dt;
  Simulation<double> safe(p, make_force_engine<double>("direct", EngineOptions{.threads = 1}),
                          std::make_unique<WhfastArrayStepper<double>>(11, false), clock);
  Simulation<double> kept = kept_simulation(p, dt);
  planetary_test::steps(safe, 1000);
  planetary_test::steps(kept, 1000);
  const Particles<double>& a = safe.particles();
  const Particles<double>& b = kept.particles();
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max({worst, std::abs(a.x[i] - b.x[i]), std::abs(a.y[i] - b.y[i]),
                      std::abs(a.z[i] - b.z[i])});
  std::printf("whfast kept against safe, 1000 steps: largest position difference %.3g au\n",
              worst);
  EXPECT_LT(worst, kKeptSafeAgreement);
  EXPECT_GT(worst, 0.0);  // two roundings: equal bits would mean one path was not taken
}

// Reading the state (x and v brought up on a copy of the Jacobi coordinates) changes no later
// bit; a checkpoint's state (the Jacobi coordinates and the last step) continues bit for bit;
// REBOUND's expectation of test_whfast_outersolarsystem (|ΔE/E| < 2.4·10⁻⁸) holds, corrector 11
// or none.
TEST(Whfast, KeptCoordinatesReadAndResumeWithoutChangingABit) {
  const Particles<double> p = rebound_outer_solar_system();
  const double dt = 0.005 * 12. * 2. * 3.1415;
  for (const int corrector : {0, 11}) {
    SCOPED_TRACE(corrector);
    Simulation<double> quiet = kept_simulation(p, dt, corrector);
    Simulation<double> read = kept_simulation(p, dt, corrector);
    Simulation<double> first = kept_simulation(p, dt, corrector);
    const double e0 = quiet.diagnostics().energy_total;
    planetary_test::steps(quiet, 400);
    for (int k = 0; k < 400; ++k) {
      planetary_test::steps(read, 1);
      (void)read.diagnostics();
    }
    planetary_test::steps(first, 150);
    const StepperState<double> saved = first.stepper_state();
    EXPECT_FALSE(saved.empty());
    Simulation<double> second = kept_simulation(first.particles(), dt, corrector);
    second.load_stepper_state(saved);
    planetary_test::steps(second, 250);
    const Particles<double>& a = quiet.particles();
    for (Simulation<double>* other : {&read, &second}) {
      const Particles<double>& b = other->particles();
      EXPECT_EQ(a.x, b.x);
      EXPECT_EQ(a.vy, b.vy);
      EXPECT_EQ(a.z, b.z);
    }
    integrate_to(quiet, 1000. * 2. * 3.1415);
    EXPECT_LT(relative_energy_error(e0, quiet.diagnostics().energy_total), 2.4e-8);
  }
}

TEST(Whfast, RefusesASystemWithoutACentralMass) {
  Particles<double> p = jupiter_saturn();
  p.mass[0] = 0.0;
  EXPECT_THROW(planetary_simulation(p, "whfast", 0.1), ParameterError);
  EXPECT_THROW(WhfastArrayStepper<double>(4), ParameterError);
}

}  // namespace
}  // namespace orrery
