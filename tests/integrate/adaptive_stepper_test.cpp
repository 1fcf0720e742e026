// SPDX-License-Identifier: MIT
// Step-size control of the embedded pairs (runge_kutta/adaptive_array_stepper.hpp) on a Kepler
// orbit of eccentricity 0.9: the global error after one period follows the tolerance down, the
// steps shrink at pericentre and grow at apocentre, a rejected step leaves the state's bits
// untouched, and a tolerance for a method without an embedded pair is refused.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "array_run.hpp"
#include "kepler_orbit.hpp"
#include "orrery/core/error.hpp"
#include "orrery/integrate/integrator_registry.hpp"

namespace orrery {
namespace {

// Each hundredfold tighter tolerance must cut the error of a period at least this much: the
// global error goes as tol^(q/(q+1)), ~40× for q = 4 (measured 100–170×).
constexpr double kLeastGainPerHundredfold = 30;
// The error of a period at e = 0.9 against the tolerance: 10³–10⁶ times it, the phase error of
// the fast pericentre passage, largest for Fehlberg, which advances its lower-order solution.
constexpr double kMostErrorPerTolerance = 1e6;
// Pericentre is ~360 times faster than apocentre at e = 0.9: the largest step must be at least
// this many times the smallest.
constexpr double kLeastStepRange = 20;

struct Outcome {
  double error = 0;
  int accepted = 0, rejected = 0;
  double smallest = 1e300, largest = 0;
};

Outcome one_period(const std::string& method, double tolerance) {
  test::KeplerOrbit<double> orbit;
  orbit.e = 0.9;
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run(method, test::kepler_bodies(orbit), mass);
  auto stepper = make_array_stepper<double>(method, tolerance);
  const double end = orbit.period();
  Outcome o;
  double t = 0, h = 1e-3;
  while (t < end) {
    const double step = std::min(h, end - t);
    const StepReport<double> r = stepper->step(run.engine(), run.x(), run.v(), step);
    if (r.accepted) {
      t += step;
      ++o.accepted;
      if (step < end - t + step) o.smallest = std::min(o.smallest, step);
      o.largest = std::max(o.largest, step);
    } else {
      ++o.rejected;
    }
    h = r.next;
    if (o.accepted + o.rejected > 1000000) break;
  }
  o.error = test::kepler_error(orbit, run.state(), end);
  return o;
}

TEST(AdaptiveStepper, TheErrorFollowsTheTolerance) {
  for (const char* method : {"dopri5", "tsit5", "cash-karp", "fehlberg45"}) {
    double previous = 0;
    for (double tolerance : {1e-6, 1e-8, 1e-10}) {
      const Outcome o = one_period(method, tolerance);
      std::printf("%-10s tol %.0e: error %.2e, %d steps (%d rejected), h %.2e .. %.2e\n", method,
                  tolerance, o.error, o.accepted, o.rejected, o.smallest, o.largest);
      // The tolerance bounds each step's local error; the error of the period follows it.
      if (previous > 0) {
        EXPECT_LT(o.error, previous / kLeastGainPerHundredfold) << method << " " << tolerance;
      }
      previous = o.error;
      EXPECT_LT(o.error, kMostErrorPerTolerance * tolerance) << method << " " << tolerance;
      EXPECT_GT(o.largest / o.smallest, kLeastStepRange) << method << " " << tolerance;
    }
  }
}

TEST(AdaptiveStepper, ARejectedStepLeavesTheStateUntouched) {
  test::KeplerOrbit<double> orbit;
  orbit.e = 0.9;
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run("dopri5", test::kepler_bodies(orbit), mass);
  auto stepper = make_array_stepper<double>("dopri5", 1e-12);
  std::vector<double> x0(6), v0(6), x1(6), v1(6);
  run.engine().device().copy_to_host(run.x(), x0);
  run.engine().device().copy_to_host(run.v(), v0);
  const StepReport<double> r = stepper->step(run.engine(), run.x(), run.v(), 1.0);  // far too long
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.taken, 0.0);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_GT(*r.error, 1.0);
  EXPECT_LT(r.next, 1.0);
  run.engine().device().copy_to_host(run.x(), x1);
  run.engine().device().copy_to_host(run.v(), v1);
  EXPECT_EQ(std::memcmp(x0.data(), x1.data(), sizeof(double) * 6), 0);
  EXPECT_EQ(std::memcmp(v0.data(), v1.data(), sizeof(double) * 6), 0);
}

TEST(AdaptiveStepper, OnlyEmbeddedPairsTakeATolerance) {
  EXPECT_EQ(adaptive_integrator_names(),
            (std::vector<std::string>{"fehlberg45", "cash-karp", "dopri5", "tsit5", "verner65",
                                      "fehlberg78", "dop853", "feagin10", "feagin12", "feagin14",
                                      "bulirsch-stoer", "ias15"}));
  try {
    make_array_stepper<double>("rk4", 1e-8);
    FAIL() << "no error";
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "tolerance");
    EXPECT_NE(e.accepted().find("fehlberg45, cash-karp, dopri5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_array_stepper<double>("dopri5", -1e-8), ParameterError);
  EXPECT_THROW(make_array_stepper<double>("dopri5", std::nan("")), ParameterError);
  EXPECT_NE(make_array_stepper<float128>("dopri5", 1e-20), nullptr);
  EXPECT_NE(make_array_stepper<float>("cash-karp", 1e-5), nullptr);
}

}  // namespace
}  // namespace orrery
