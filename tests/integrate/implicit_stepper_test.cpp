// SPDX-License-Identifier: MIT
// The implicit array stepper (integrate/implicit/array_stepper.hpp) on a Kepler orbit (e = 0.5,
// period 2π): its fixed-point iteration stops by its rule (converged to rounding, or failed
// with an error that leaves the state alone), its predictor saves sweeps and is the state a
// checkpoint must carry, and the geometric methods keep the energy error bounded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "array_run.hpp"
#include "kepler_orbit.hpp"
#include "orrery/core/error.hpp"
#include "orrery/integrate/counting_system.hpp"
#include "orrery/integrate/implicit/fixed_point_rule.hpp"
#include "orrery/integrate/integrator_registry.hpp"

namespace orrery {
namespace {

using test::KeplerOrbit;
using Verdict = FixedPointRule::Verdict;

TEST(FixedPointRule, ConvergedWhenTheChangeVanishesOrStopsFallingAtRounding) {
  FixedPointRule vanishing(53);
  EXPECT_EQ(vanishing.after_sweep(1e-3), Verdict::iterate);
  EXPECT_EQ(vanishing.after_sweep(0.0), Verdict::converged);

  FixedPointRule stalled(53);
  for (double change : {1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 3e-16})
    EXPECT_EQ(stalled.after_sweep(change), Verdict::iterate) << change;
  EXPECT_EQ(stalled.after_sweep(4e-16), Verdict::converged);
  EXPECT_EQ(stalled.sweeps(), 7);
}

TEST(FixedPointRule, AStallAboveRoundingIsNoConvergence) {
  // fp64's rounding level is 2^−43 ≈ 1.1·10⁻¹³; fp32's 2^−14 ≈ 6·10⁻⁵.
  FixedPointRule fp64(53);
  EXPECT_EQ(fp64.after_sweep(1e-4), Verdict::iterate);
  EXPECT_EQ(fp64.after_sweep(2e-4), Verdict::iterate);  // a slow start, or a divergence
  EXPECT_EQ(fp64.after_sweep(3e-4), Verdict::iterate);
  FixedPointRule fp32(24);
  EXPECT_EQ(fp32.after_sweep(1e-5), Verdict::iterate);
  EXPECT_EQ(fp32.after_sweep(2e-5), Verdict::converged);
}

TEST(FixedPointRule, FailsAtTheCapOrANonFiniteChange) {
  FixedPointRule slow(113);
  Verdict verdict = Verdict::iterate;
  double change = 1.0;
  while (verdict == Verdict::iterate) verdict = slow.after_sweep(change *= 0.9);
  EXPECT_EQ(verdict, Verdict::failed);
  EXPECT_EQ(slow.sweeps(), FixedPointRule::kMaxSweeps);
  FixedPointRule overflow(53);
  EXPECT_EQ(overflow.after_sweep(std::numeric_limits<double>::infinity()), Verdict::failed);
  FixedPointRule nan(53);
  EXPECT_EQ(nan.after_sweep(std::nan("")), Verdict::failed);
}

constexpr const char* kImplicit[] = {"trapezoid", "gauss-legendre4", "gauss-legendre6",
                                     "gauss-legendre8", "lobatto3ab4"};

using Counting = CountingSystem<double>;

const double kMass[2] = {test::kKeplerMass, test::kKeplerMass};

// A step far beyond the pericentre's time scale (h = 3, half a period, from the pericentre,
// where 1/√(μ/r³) = 0.35): the iteration does not contract. The stepper says so, naming itself,
// and leaves x and v alone.
TEST(ImplicitStepper, AStepTooLargeToConvergeIsAnErrorThatChangesNothing) {
  const KeplerOrbit<double> orbit;
  for (const char* name : {"gauss-legendre6", "gauss-legendre8"}) {
    test::ArrayRun<double, 2> run(name, test::kepler_bodies(orbit), kMass);
    const BodyState<double, 2> before = run.state();
    try {
      run.step(3.0);
      ADD_FAILURE() << name << ": no error";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("smaller step"), std::string::npos) << e.what();
    }
    const BodyState<double, 2> after = run.state();
    EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0) << name;
    run.step(0.01);  // and the stepper still works
  }
}

// The extrapolated predictor starts each iteration within O(h^s) of its solution, the
// predictor from a(x) within O(h): at 200 steps per orbit it saves sweeps.
// Runs converged to rounding agree to 200 steps of it (~10⁻¹⁶ each) and the Kepler shear's
// amplification, by a wide margin.
constexpr double kSameSolution = 1e-12;
TEST(ImplicitStepper, ThePredictorSavesSweeps) {
  const KeplerOrbit<double> orbit;
  const double h = orbit.period() / 200;
  for (const char* name : kImplicit) {
    test::ArrayRun<double, 2> continued(name, test::kepler_bodies(orbit), kMass);
    test::ArrayRun<double, 2> cleared(name, test::kepler_bodies(orbit), kMass);
    Counting with_history(continued.engine()), without(cleared.engine());
    for (int i = 0; i < 200; ++i) {
      continued.step(with_history, h);
      cleared.stepper().clear();
      cleared.step(without, h);
    }
    std::printf("%-16s force evaluations per step: %.2f with the predictor, %.2f from a(x)\n",
                name, with_history.evaluations / 200.0, without.evaluations / 200.0);
    EXPECT_LT(with_history.evaluations, without.evaluations) << name;
    // Both converge to the same solution: to rounding, where the iteration stops at a stall,
    // whose last bits depend on where it started (hence the saved state of a checkpoint).
    const BodyState<double, 2> a = continued.state(), b = cleared.state();
    EXPECT_LT(std::sqrt(norm2(a.x[1] - b.x[1])), kSameSolution) << name;
    EXPECT_LT(std::sqrt(norm2(a.v[1] - b.v[1])), kSameSolution) << name;
  }
}

// A state from another stepper, or none, is refused.
TEST(ImplicitStepper, LoadRefusesAForeignState) {
  const KeplerOrbit<double> orbit;
  test::ArrayRun<double, 2> leapfrog("leapfrog", test::kepler_bodies(orbit), kMass);
  leapfrog.step(0.01);
  StepperState<double> kept;
  leapfrog.stepper().save(leapfrog.engine(), kept);
  test::ArrayRun<double, 2> gauss("gauss-legendre6", test::kepler_bodies(orbit), kMass);
  EXPECT_THROW(gauss.stepper().load(gauss.engine(), kept), InputError);
  EXPECT_THROW(gauss.stepper().load(gauss.engine(), StepperState<double>()), InputError);
  gauss.step(0.01);
  StepperState<double> own;
  gauss.stepper().save(gauss.engine(), own);
  EXPECT_EQ(own.find_array("stage_accelerations")->size(), 3u * 2 * 3);
  EXPECT_NO_THROW(gauss.stepper().load(gauss.engine(), own));
}

}  // namespace
}  // namespace orrery
