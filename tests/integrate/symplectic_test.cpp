// SPDX-License-Identifier: MIT
// Geometric properties of the splitting methods on a Kepler orbit (e = 0.5, period 2π):
// the energy error of a symplectic method stays bounded (it conserves a modified energy
// H + O(h^p), Hairer–Lubich–Wanner, "Geometric Numerical Integration", §IX.8) with no secular
// drift over 10⁴ orbits, while a non-symplectic method of the same order drifts; a symmetric
// method retraces its path when the step is negated (time reversibility).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "array_run.hpp"
#include "kepler_orbit.hpp"
#include "orrery/physics/pairwise_gravity.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/register_integrator.hpp"

namespace orrery {
namespace {

using test::KeplerOrbit;

constexpr int kOrbits = 10000;
constexpr int kBlockOrbits = 1000;
constexpr int kStepsPerOrbit = 200;
// Per method, steps where the error bound is in its asymptotic regime (halving the step divides
// it by 2^p) and stays above rounding at half the step: coarser for the high orders, except
// Yoshida's eighth, whose bound falls by 2^8 per halving only from 200 steps (run over fewer
// orbits: it costs 15 evaluations a step).
constexpr int kYoshida6StepsPerOrbit = 100;
constexpr int kYoshida8Orbits = 1000;
constexpr int kImplicitOrbits = 1000;
const std::pair<const char*, int> kImplicitStepsPerOrbit[] = {
    {"gauss-legendre4", 100}, {"gauss-legendre6", 50}, {"gauss-legendre8", 50}, {"lobatto3ab4", 100}};

// No secular drift: the largest energy error of the last 1000 orbits exceeds that of the first
// 1000 by less than this factor. Rounding adds a random walk of ~√(2·10⁶)·10⁻¹⁶ ≈ 10⁻¹³, far below
// the method's bounded error (≥ 10⁻⁸ here); a linear drift would make the factor ≈ 10.
constexpr double kNoDriftFactor = 1.05;
// The bound of the energy error is O(h^p): halving the step divides the largest error of the
// first orbits by 2^p within this relative tolerance (the next term is O(h^{p+2})).
constexpr double kEnergyOrderTolerance = 0.1;

double kepler_energy(const BodyState<double, 2>& s) {
  const double m = test::kKeplerMass;
  const double kinetic = 0.5 * m * (norm2(s.v[0]) + norm2(s.v[1]));
  return kinetic - m * m / std::sqrt(norm2(s.x[1] - s.x[0]));
}

struct EnergyHistory {
  double first_block = 0;   // max |ΔE/E| over the first `block` orbits
  double last_block = 0;    // ... over the last `block` orbits
  double first_orbits = 0;  // ... over the first 10 orbits
};

// |ΔE/E| after every step of `orbits` orbits; advance(h) takes a step and returns the state.
template <class Advance>
EnergyHistory energy_history(Advance&& advance, int orbits, int steps_per_orbit, int block) {
  const KeplerOrbit<double> orbit;
  const double e0 = kepler_energy(test::kepler_bodies(orbit));
  const double h = orbit.period() / steps_per_orbit;
  EnergyHistory history;
  for (int k = 0; k < orbits; ++k) {
    double block_max = 0;
    for (int i = 0; i < steps_per_orbit; ++i)
      block_max = std::max(block_max, std::fabs(kepler_energy(advance(h)) / e0 - 1));
    if (k < 10) history.first_orbits = std::max(history.first_orbits, block_max);
    if (k < block) history.first_block = std::max(history.first_block, block_max);
    if (k >= orbits - block) history.last_block = std::max(history.last_block, block_max);
  }
  return history;
}

// With the register stepper (accelerations kept between steps for the splitting methods, as an
// ensemble kernel runs them).
template <class Table>
EnergyHistory register_energy_history(int orbits, int steps_per_orbit, int block) {
  const PairwiseGravity<2, double> gravity{{test::kKeplerMass, test::kKeplerMass}};
  BodyState<double, 2> s = test::kepler_bodies(KeplerOrbit<double>());
  Vec3<double> a[2];
  gravity(s.x, a);
  auto advance = [&](double h) {
    if constexpr (Table::family == IntegratorFamily::splitting)
      split_step<Table>(s, a, h, gravity);
    else
      rk_step<Table>(s, h, gravity);
    return s;
  };
  return energy_history(advance, orbits, steps_per_orbit, block);
}

// With the array stepper (the implicit methods have no other).
EnergyHistory array_energy_history(const std::string& name, int orbits, int steps_per_orbit,
                                   int block) {
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run(name, test::kepler_bodies(KeplerOrbit<double>()), mass);
  auto advance = [&](double h) {
    run.step(h);
    return run.state();
  };
  return energy_history(advance, orbits, steps_per_orbit, block);
}

// The criteria below over `orbits` orbits in blocks of orbits/10, at `steps_per_orbit` (chosen
// per method so that its bounded error stands well above rounding, ≥ 10⁻¹¹, even at half the
// step). history(orbits, steps_per_orbit, block) runs the method.
template <class History>
void expect_bounded_energy_error(const char* name, int order, History history, int orbits,
                                 int steps_per_orbit, bool check_order = true) {
  const int block = orbits / 10;
  const EnergyHistory run = history(orbits, steps_per_orbit, block);
  std::printf("%s: max |dE/E| first 10 orbits %.3e, first %d %.3e, last %d %.3e\n", name,
              run.first_orbits, block, run.first_block, block, run.last_block);
  EXPECT_LE(run.last_block, kNoDriftFactor * run.first_block) << name;
  // The bound is reached within the first orbits: the error oscillates, it does not grow.
  EXPECT_LE(run.first_block, kNoDriftFactor * run.first_orbits) << name;
  // ... and it is the method's O(h^p).
  if (!check_order) return;
  const EnergyHistory half = history(10, 2 * steps_per_orbit, 10);
  std::printf("%s: ... first 10 orbits at half the step %.3e (ratio %.2f, 2^p = %g)\n", name,
              half.first_orbits, run.first_orbits / half.first_orbits, std::pow(2.0, order));
  EXPECT_NEAR(run.first_orbits / half.first_orbits, std::pow(2.0, order),
              kEnergyOrderTolerance * std::pow(2.0, order))
      << name;
}

template <class Table>
void expect_bounded_energy_error(int orbits = kOrbits, int steps_per_orbit = kStepsPerOrbit) {
  expect_bounded_energy_error(Table::name, Table::order, register_energy_history<Table>, orbits,
                              steps_per_orbit);
}

TEST(SymplecticIntegrators, LeapfrogEnergyErrorBoundedOver10000Orbits) {
  expect_bounded_energy_error<LeapfrogKDK>();
}

TEST(SymplecticIntegrators, Yoshida4EnergyErrorBoundedOver10000Orbits) {
  expect_bounded_energy_error<Yoshida4>();
}

TEST(SymplecticIntegrators, Yoshida6And8EnergyErrorBounded) {
  expect_bounded_energy_error<Yoshida6>(kOrbits, kYoshida6StepsPerOrbit);
  expect_bounded_energy_error<Yoshida8>(kYoshida8Orbits, kStepsPerOrbit);
}

// The implicit symplectic methods through their array stepper, over fewer orbits (each step
// iterates); the criteria are the same, but for gauss-legendre8's O(h⁸): its bound reaches the
// asymptotic ratio 2⁸ only where halving the step sinks it to fp64's rounding (measured 354 at
// 50 → 100 steps, 3.5·10⁻¹² at 100); its order is measured in float128 instead
// (integrator_convergence_test.cpp).
TEST(SymplecticIntegrators, ImplicitSymplecticEnergyErrorBoundedOver1000Orbits) {
  for (const auto& [name, steps_per_orbit] : kImplicitStepsPerOrbit)
    expect_bounded_energy_error(name, find_integrator(name).order,
                                [&](int orbits, int steps, int block) {
                                  return array_energy_history(name, orbits, steps, block);
                                },
                                kImplicitOrbits, steps_per_orbit,
                                std::string(name) != "gauss-legendre8");
}

// The same criterion rejects a non-symplectic method of leapfrog's order at leapfrog's step:
// the midpoint rule's energy error grows linearly (by ~8·10⁻⁴ per orbit; 100 orbits in blocks of
// 10, since it loses the orbit within 10³). Shows the drift test can fail.
TEST(SymplecticIntegrators, MidpointEnergyDriftsUnderTheSameCriterion) {
  const EnergyHistory run = register_energy_history<Midpoint>(100, kStepsPerOrbit, 10);
  std::printf("midpoint: max |dE/E| first 10 orbits %.3e, last 10 of 100 %.3e\n", run.first_block,
              run.last_block);
  EXPECT_GT(run.last_block, 5 * kNoDriftFactor * run.first_block);
}

// Time reversibility: n steps of h then n steps of −h return to the start up to rounding. Each
// step is exactly invertible in real arithmetic; rounding (~10⁻¹⁶ per operation) accumulates
// over 2·10³ steps (7 operations each for Yoshida), with the Kepler shear amplifying it at most
// linearly: ≲ 10⁻¹² (measured 4·10⁻¹⁴ leapfrog, 2·10⁻¹³ Yoshida). A non-symmetric method misses
// by its error, 4·10⁻⁴ for RK4 here.
constexpr double kReversibilityTolerance = 1e-12;
constexpr int kReversalSteps = 1000;  // 5 orbits

template <class Table>
double reversal_error() {
  const KeplerOrbit<double> orbit;
  const PairwiseGravity<2, double> gravity{{test::kKeplerMass, test::kKeplerMass}};
  const BodyState<double, 2> start = test::kepler_bodies(orbit);
  BodyState<double, 2> s = start;
  const double h = orbit.period() / kStepsPerOrbit;
  for (int i = 0; i < kReversalSteps; ++i) register_step<Table>(s, h, gravity);
  for (int i = 0; i < kReversalSteps; ++i) register_step<Table>(s, -h, gravity);
  double error = 0;
  for (int n = 0; n < 2; ++n)
    error = std::max({error, std::sqrt(norm2(s.x[n] - start.x[n])),
                      std::sqrt(norm2(s.v[n] - start.v[n]))});
  return error;
}

double array_reversal_error(const std::string& name) {
  const KeplerOrbit<double> orbit;
  const BodyState<double, 2> start = test::kepler_bodies(orbit);
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run(name, start, mass);
  const double h = orbit.period() / kStepsPerOrbit;
  for (int i = 0; i < kReversalSteps; ++i) run.step(h);
  for (int i = 0; i < kReversalSteps; ++i) run.step(-h);
  const BodyState<double, 2> s = run.state();
  double error = 0;
  for (int n = 0; n < 2; ++n)
    error = std::max({error, std::sqrt(norm2(s.x[n] - start.x[n])),
                      std::sqrt(norm2(s.v[n] - start.v[n]))});
  return error;
}

TEST(SymplecticIntegrators, LeapfrogAndYoshidaAreTimeReversible) {
  std::printf("reversal error: leapfrog %.3e, yoshida4 %.3e, rk4 %.3e\n",
              reversal_error<LeapfrogKDK>(), reversal_error<Yoshida4>(),
              reversal_error<ClassicRK4>());
  EXPECT_LE(reversal_error<LeapfrogKDK>(), kReversibilityTolerance);
  EXPECT_LE(reversal_error<Yoshida4>(), kReversibilityTolerance);
  EXPECT_LE(array_reversal_error("leapfrog"), kReversibilityTolerance);
  EXPECT_LE(array_reversal_error("yoshida4"), kReversibilityTolerance);
  // Not a property of every method: RK4 and symplectic Euler are not symmetric.
  EXPECT_GT(reversal_error<ClassicRK4>(), 1e3 * kReversibilityTolerance);
  EXPECT_GT(reversal_error<SymplecticEuler>(), 1e3 * kReversibilityTolerance);
}

// The same for the higher compositions and the symmetric implicit methods (all five: the
// trapezoid is symmetric without being symplectic), whose iteration converges to rounding, so
// their steps too are inverted by −h up to rounding.
// Yoshida's eighth makes 31 operations a step, four times the fourth's 7: its rounding (measured
// 8.5·10⁻¹³) gets the tolerance scaled by that.
constexpr double kYoshida8ReversibilityTolerance = 5 * kReversibilityTolerance;

TEST(SymplecticIntegrators, HigherCompositionsAndImplicitMethodsAreTimeReversible) {
  EXPECT_LE(reversal_error<Yoshida6>(), kReversibilityTolerance);
  EXPECT_LE(reversal_error<Yoshida8>(), kYoshida8ReversibilityTolerance);
  for (const char* name : {"yoshida6", "yoshida8", "trapezoid", "gauss-legendre4",
                           "gauss-legendre6", "gauss-legendre8", "lobatto3ab4"}) {
    const double error = array_reversal_error(name);
    std::printf("reversal error %s: %.3e\n", name, error);
    EXPECT_LE(error, std::string(name) == "yoshida8" ? kYoshida8ReversibilityTolerance
                                                     : kReversibilityTolerance)
        << name;
  }
}

}  // namespace
}  // namespace orrery
