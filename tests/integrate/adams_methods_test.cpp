// SPDX-License-Identifier: MIT
// The Adams methods of `orrery sim` (multistep/adams_methods.hpp, multistep/array_stepper.hpp):
// their weights meet the order conditions; ab1 is explicit Euler; a changed step restarts the
// method with its starter, and the order holds across such changes (the run loop's shortened
// steps onto output times); the history saves and loads exactly, in the middle of the starter
// phase too, and a loaded history is the one used.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "array_run.hpp"
#include "kepler_orbit.hpp"
#include "orrery/core/error.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/integrate/multistep/adams_weights.hpp"

namespace orrery {
namespace {

using test::KeplerOrbit;

// The weights are exact fractions rounded once each; a sum of five of them times small integers
// stays within a few ulps of its exact value.
constexpr double kWeightRounding = 1e-14;

// Σ_j β_j ξ_j^{q−1} = 1/q for q = 1 … `order`: the method integrates polynomials of degree
// `order` − 1 in t exactly over one step (HNW I, §III.2), ξ_j the nodes in units of h from t_n.
template <std::size_t K>
void expect_order_conditions(const double (&beta)[K], int first_node, int order,
                             const std::string& what) {
  for (int q = 1; q <= order + 1; ++q) {
    double sum = 0;
    for (std::size_t j = 0; j < K; ++j)
      sum += beta[j] * std::pow(double(first_node - static_cast<int>(j)), q - 1);
    if (q <= order)
      EXPECT_NEAR(sum, 1.0 / q, kWeightRounding) << what << " q = " << q;
    else  // and no higher: the weights are the method of this order, not another one
      EXPECT_GT(std::abs(sum - 1.0 / q), 1e-3) << what << " q = " << q;
  }
}

TEST(AdamsMethods, WeightsMeetTheirOrderConditions) {
  expect_order_conditions(AdamsBashforthWeights<1>::beta, 0, 1, "AB1");
  expect_order_conditions(AdamsBashforthWeights<2>::beta, 0, 2, "AB2");
  expect_order_conditions(AdamsBashforthWeights<3>::beta, 0, 3, "AB3");
  expect_order_conditions(AdamsBashforthWeights<4>::beta, 0, 4, "AB4");
  expect_order_conditions(AdamsBashforthWeights<5>::beta, 0, 5, "AB5");
  expect_order_conditions(AdamsMoulton4Weights::beta, 1, 4, "AM4");
}

template <class Real, int N>
bool same_bits(const BodyState<Real, N>& a, const BodyState<Real, N>& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

const double kMass[2] = {test::kKeplerMass, test::kKeplerMass};

TEST(AdamsMethods, Ab1IsExplicitEulerBitForBit) {
  test::ArrayRun<double, 2> ab1("ab1", test::kepler_bodies(KeplerOrbit<double>{}), kMass);
  test::ArrayRun<double, 2> euler("euler", test::kepler_bodies(KeplerOrbit<double>{}), kMass);
  for (int i = 0; i < 50; ++i) {
    ab1.step(0.01);
    euler.step(0.01);
  }
  EXPECT_TRUE(same_bits(ab1.state(), euler.state()));
}

const char* const kWithHistory[] = {"ab2", "ab3", "ab4", "ab5", "abm4"};

// A step of another size than the history's starts the method afresh (as clear() does); the
// same size continues from the history.
TEST(AdamsMethods, AChangedStepRestartsTheMethod) {
  const BodyState<double, 2> start = test::kepler_bodies(KeplerOrbit<double>{});
  for (const char* name : kWithHistory) {
    auto run = [&](double later_h, bool clear) {
      test::ArrayRun<double, 2> r(name, start, kMass);
      for (int i = 0; i < 8; ++i) r.step(0.01);
      if (clear) r.stepper().clear();
      for (int i = 0; i < 6; ++i) r.step(later_h);
      return r.state();
    };
    EXPECT_TRUE(same_bits(run(0.007, false), run(0.007, true))) << name;
    EXPECT_FALSE(same_bits(run(0.01, false), run(0.01, true))) << name;
  }
}

// The run loop's schedule in miniature: unit intervals to kEndTime, each m regular steps of
// h = 1/(m + ½) and one of what remains (h/2), as a step shortened onto an output time. Each
// interval restarts the method twice; the measured order must still be the nominal one (a
// history kept across the change would put an O(h·Δh) error at each of the fixed number of
// changes, and the order would fall to 2).
constexpr double kEndTime = 5.0;
constexpr int kHalvings = 3;
// As integrator_convergence_test.cpp's: the next term of the expansion moves the slope by less.
constexpr double kOrderTolerance = 0.1;

double error_with_outputs(const std::string& name, int m, double eccentricity) {
  const KeplerOrbit<double> orbit{.e = eccentricity};
  test::ArrayRun<double, 2> run(name, test::kepler_bodies(orbit), kMass);
  const double h = 1.0 / (m + 0.5);
  for (int interval = 1; interval <= kEndTime; ++interval) {
    double t = interval - 1;
    for (int i = 0; i < m; ++i, t += h) run.step(h);
    run.step(interval - t);
  }
  return test::kepler_error(orbit, run.state(), kEndTime);
}

TEST(AdamsMethods, OrderHoldsAcrossChangedSteps) {
  // The ranges of integrator_convergence_test.cpp (in steps per unit time), ab5 on its orbit.
  struct Case {
    const char* name;
    int coarsest;  // regular steps per unit interval
    double eccentricity;
  };
  for (const Case c : {Case{"ab2", 256, 0.5}, Case{"ab3", 128, 0.5}, Case{"ab4", 64, 0.5},
                       Case{"ab5", 32, 0.1}, Case{"abm4", 128, 0.5}}) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    std::string errors;
    for (int k = 0; k <= kHalvings; ++k) {
      const int m = c.coarsest << k;
      const double lx = std::log(1.0 / (m + 0.5));
      const double e = error_with_outputs(c.name, m, c.eccentricity);
      const double ly = std::log(e);
      sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
      errors += fmt::format(" {:.3e}", e);
    }
    const double n = kHalvings + 1, slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    std::printf("%-5s with a shortened step per unit time: fitted order %.4f (errors%s)\n",
                c.name, slope, errors.c_str());
    EXPECT_NEAR(slope, find_integrator(c.name).order, kOrderTolerance) << c.name;
  }
}

// Saved after `first` steps (in the starter phase for first < k − 1) and loaded into a fresh
// engine and stepper, the run continues with the bits of the uninterrupted one.
TEST(AdamsMethods, ResumesBitForBitInAndAfterTheStarterPhase) {
  const BodyState<double, 2> start = test::kepler_bodies(KeplerOrbit<double>{});
  for (const char* name : kWithHistory)
    for (int first = 0; first <= find_integrator(name).starter_steps + 1; ++first) {
      test::ArrayRun<double, 2> whole(name, start, kMass), half(name, start, kMass);
      for (int i = 0; i < 12; ++i) whole.step(0.01);
      for (int i = 0; i < first; ++i) half.step(0.01);
      StepperState<double> saved;
      half.stepper().save(half.engine(), saved);
      EXPECT_EQ(saved.scalar("history_steps"),
                std::min(first, find_integrator(name).starter_steps)) << name;
      test::ArrayRun<double, 2> resumed(name, half.state(), kMass);
      resumed.stepper().load(resumed.engine(), saved);
      for (int i = first; i < 12; ++i) resumed.step(0.01);
      EXPECT_TRUE(same_bits(resumed.state(), whole.state())) << name << " after " << first;
    }
}

// The loaded history is the one used: an altered earlier acceleration changes the next step.
TEST(AdamsMethods, ALoadedHistoryIsUsed) {
  const BodyState<double, 2> start = test::kepler_bodies(KeplerOrbit<double>{});
  for (const char* name : kWithHistory) {
    test::ArrayRun<double, 2> run(name, start, kMass);
    for (int i = 0; i < 6; ++i) run.step(0.01);
    StepperState<double> saved;
    run.stepper().save(run.engine(), saved);
    StepperState<double> altered = saved;
    std::vector<double> a = *saved.find_array("acceleration_1");
    for (double& value : a) value *= 2;
    altered.set_array("acceleration_1", a);
    test::ArrayRun<double, 2> faithful(name, run.state(), kMass), changed(name, run.state(), kMass);
    faithful.stepper().load(faithful.engine(), saved);
    changed.stepper().load(changed.engine(), altered);
    run.step(0.01);
    faithful.step(0.01);
    changed.step(0.01);
    EXPECT_TRUE(same_bits(faithful.state(), run.state())) << name;
    EXPECT_FALSE(same_bits(changed.state(), run.state())) << name;
  }
}

// A state the stepper could not have saved is refused.
TEST(AdamsMethods, LoadRefusesAStateItCouldNotHaveSaved) {
  const BodyState<double, 2> start = test::kepler_bodies(KeplerOrbit<double>{});
  test::ArrayRun<double, 2> ab3("ab3", start, kMass), leapfrog("leapfrog", start, kMass);
  for (int i = 0; i < 4; ++i) ab3.step(0.01), leapfrog.step(0.01);
  StepperState<double> good, foreign;
  ab3.stepper().save(ab3.engine(), good);
  leapfrog.stepper().save(leapfrog.engine(), foreign);
  EXPECT_THROW(ab3.stepper().load(ab3.engine(), foreign), InputError);
  EXPECT_THROW(leapfrog.stepper().load(leapfrog.engine(), good), InputError);
  auto refused = [&](StepperState<double> s) {
    EXPECT_THROW(ab3.stepper().load(ab3.engine(), s), InputError);
  };
  StepperState<double> too_many = good;
  too_many.set_scalar("history_steps", 3);  // ab3 holds at most 2 earlier values
  refused(too_many);
  StepperState<double> fractional = good;
  fractional.set_scalar("history_steps", 1.5);
  refused(fractional);
  StepperState<double> short_array = good;
  short_array.set_array("velocity_2", std::vector<double>(5));
  refused(short_array);
  StepperState<double> missing;
  missing.set_scalar("history_steps", 2);
  missing.set_scalar("history_step_size", 0.01);
  for (const char* name : {"velocity_1", "acceleration_1", "velocity_2"})
    missing.set_array(name, *good.find_array(name));
  missing.set_array("acceleration_3", *good.find_array("acceleration_2"));
  refused(missing);
  ab3.stepper().load(ab3.engine(), good);  // and the good one still loads
}

}  // namespace
}  // namespace orrery
