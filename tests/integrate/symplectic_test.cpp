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

// |ΔE/E| after every step of `orbits` orbits, with the register stepper (accelerations kept
// between steps for the splitting methods, as an ensemble kernel runs them).
template <class Table>
EnergyHistory energy_history(int orbits, int steps_per_orbit, int block = kBlockOrbits) {
  const KeplerOrbit<double> orbit;
  const PairwiseGravity<2, double> gravity{{test::kKeplerMass, test::kKeplerMass}};
  BodyState<double, 2> s = test::kepler_bodies(orbit);
  const double e0 = kepler_energy(s);
  const double h = orbit.period() / steps_per_orbit;
  Vec3<double> a[2];
  gravity(s.x, a);
  EnergyHistory history;
  for (int k = 0; k < orbits; ++k) {
    double block_max = 0;
    for (int i = 0; i < steps_per_orbit; ++i) {
      if constexpr (Table::family == IntegratorFamily::splitting)
        split_step<Table>(s, a, h, gravity);
      else
        rk_step<Table>(s, h, gravity);
      block_max = std::max(block_max, std::fabs(kepler_energy(s) / e0 - 1));
    }
    if (k < 10) history.first_orbits = std::max(history.first_orbits, block_max);
    if (k < block) history.first_block = std::max(history.first_block, block_max);
    if (k >= orbits - block) history.last_block = std::max(history.last_block, block_max);
  }
  return history;
}

template <class Table>
void expect_bounded_energy_error() {
  const EnergyHistory run = energy_history<Table>(kOrbits, kStepsPerOrbit);
  std::printf("%s: max |dE/E| first 10 orbits %.3e, first 1000 %.3e, last 1000 %.3e\n",
              Table::name, run.first_orbits, run.first_block, run.last_block);
  EXPECT_LE(run.last_block, kNoDriftFactor * run.first_block) << Table::name;
  // The bound is reached within the first orbits: the error oscillates, it does not grow.
  EXPECT_LE(run.first_block, kNoDriftFactor * run.first_orbits) << Table::name;
  // ... and it is the method's O(h^p).
  const EnergyHistory half = energy_history<Table>(10, 2 * kStepsPerOrbit);
  EXPECT_NEAR(run.first_orbits / half.first_orbits, std::pow(2.0, Table::order),
              kEnergyOrderTolerance * std::pow(2.0, Table::order))
      << Table::name;
}

TEST(SymplecticIntegrators, LeapfrogEnergyErrorBoundedOver10000Orbits) {
  expect_bounded_energy_error<LeapfrogKDK>();
}

TEST(SymplecticIntegrators, Yoshida4EnergyErrorBoundedOver10000Orbits) {
  expect_bounded_energy_error<Yoshida4>();
}

// The same criterion rejects a non-symplectic method of leapfrog's order at leapfrog's step:
// the midpoint rule's energy error grows linearly (by ~8·10⁻⁴ per orbit; 100 orbits in blocks of
// 10, since it loses the orbit within 10³). Shows the drift test can fail.
TEST(SymplecticIntegrators, MidpointEnergyDriftsUnderTheSameCriterion) {
  const EnergyHistory run = energy_history<Midpoint>(100, kStepsPerOrbit, 10);
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

}  // namespace
}  // namespace orrery
