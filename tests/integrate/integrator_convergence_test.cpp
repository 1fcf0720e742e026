// SPDX-License-Identifier: MIT
// Measured convergence order of every integrator on a Kepler orbit (e = 0.5, or a circle) against
// the analytic solution: the global error at time kEndTime, at steps h, h/2, h/4, ...; each
// halving must divide it by 2^p, p the nominal order, and the least-squares fit
// log(error) = p log(h) + const must give p.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "array_run.hpp"
#include "fitted_slope.hpp"
#include "kepler_orbit.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/physics/pairwise_gravity.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/register_integrator.hpp"

namespace orrery {
namespace {

using test::fitted_slope;
using test::KeplerOrbit;

// Where the error is measured: a generic phase of the orbit (period 2π), between apocentre and
// pericentre. At a symmetry point (pericentre, apocentre, whole periods from the pericentre
// start) first-order errors can cancel: symplectic Euler then shows order 2.
constexpr double kEndTime = 5.0;

// Per integrator, the steps of the coarsest run over the case's time; the fit takes it and
// `halvings` halvings. Each range lies in the asymptotic regime, where halving the step divides
// the error by 2^p (the test asks it of every halving, within ratio_tolerance, and prints the
// ratios), and well above rounding (smallest error ≥ 10⁻¹³ with rounding ~10⁻¹⁵ in fp64;
// ≥ 10⁻³⁰ with ~10⁻³² in float128).
//
// The next term of the error expansion (h^{p+1}, or h^{p+2} for the symmetric methods) moves a
// ratio by a few % in the ranges chosen; a term of a lower order (a coefficient that misses one
// of its conditions) moves it by ≥ 50 % where it rules, and by more than 5 % already where it
// starts to show — where a slope within 0.1 of p still allows each ratio 7 % (2^0.1).
constexpr double kRatioTolerance = 0.05;
struct OrderCase {
  std::string name;
  int coarsest_steps;
  // Fehlberg's and Dormand–Prince's leading error terms are small by design, and the error of a
  // method of order ≥ 8 falls through fp64's rounding within a halving or two: their steps reach
  // the asymptotic regime only below it, so they are measured in float128 (array stepper).
  bool float128 = false;
  // The orbit: the high orders reach their asymptotic regime at larger steps on a circle (fp64)
  // or over the first unit of time from the pericentre (float128, where fewer steps leave more
  // room above the rounding that accumulates per step). Adams–Bashforth 5's error expansion
  // converges slowly on e = 0.5: its halving ratios reach 5 % of 32 only at 4096 steps, where
  // fp64's rounding already shows, so it is measured on a rounder orbit (ratios 30.0, 31.1, 31.5
  // from 128 steps at e = 0.1; the test starts at 256).
  double eccentricity = 0.5;
  double end_time = kEndTime;
  int halvings = 3;
  // The fitted slope may differ from the nominal order by this much: in the ranges chosen the
  // next term of the error expansion (h^{p+1}, or h^{p+2} for the symmetric methods) changes
  // the slope by < 0.05, and a method of the wrong order is off by ≥ 1.
  double tolerance = 0.1;
  // Each halving's error ratio may differ from 2^p by this fraction of 2^p.
  double ratio_tolerance = kRatioTolerance;
};
// feagin14's next terms fall off slowly (halving ratios 2.3·10⁴, 2.0·10⁴, 1.9·10⁴ against
// 2¹⁴ = 1.6·10⁴) and float128's rounding ends the halvings there: its slope must round to 14, its
// ratios lie within 45 % of 2¹⁴ (2¹³ and 2¹⁵ are 50 % and 100 % away).
constexpr double kSlowTailTolerance = 0.5;
constexpr double kSlowTailRatioTolerance = 0.45;
// feagin12's ratios stay about 5 % off 2¹² (0.95, 1.05, 1.05 of it) until float128's rounding ends
// the halvings: 7 % (2^{11} and 2^{13} are 50 % and 100 % away).
constexpr double kFeagin12RatioTolerance = 0.07;
constexpr double kCircle = 0.0, kUnitTime = 1.0;
const OrderCase kOrderCases[] = {
    {"euler", 1 << 15},   {"symplectic-euler", 1 << 12}, {"midpoint", 1 << 10},
    {"rk4", 1 << 10},     {"leapfrog", 1 << 9},           {"yoshida4", 1 << 7},
    {"cash-karp", 1 << 8},
    // The pairs of order 4 and 5 whose leading terms are small by design; tsit5's fp64 ratios,
    // like dopri5's, stay above 2⁵ (34 … 40 on e = 0.5, t = 5) until rounding.
    {"fehlberg45", 1 << 10, true, 0.5, kUnitTime},
    {"dopri5", 1 << 10, true, 0.5, kUnitTime},
    {"tsit5", 1 << 9, true, 0.5, kUnitTime},
    // On the circle in fp64, two halvings: a third reaches fp64's rounding (errors ~10⁻¹³).
    {"verner65", 1 << 6, false, kCircle, kEndTime, 2},
    {"fehlberg78", 1 << 4, false, kCircle, kEndTime, 2},
    {"dop853", 1 << 3, false, kCircle, kEndTime, 2},
    {"verner65", 1 << 8, true, 0.5, kUnitTime},
    {"fehlberg78", 1 << 9, true, 0.5, kUnitTime},
    {"dop853", 1 << 6, true, 0.5, kUnitTime},
    {"feagin10", 1 << 7, true, 0.5, kUnitTime},
    {"feagin12", 1 << 5, true, 0.5, kUnitTime, 3, 0.1, kFeagin12RatioTolerance},
    {"feagin14", 1 << 5, true, 0.5, kUnitTime, 3, kSlowTailTolerance, kSlowTailRatioTolerance},
    {"kutta3", 1 << 9},   {"ab1", 1 << 12},              {"ab2", 1 << 11},
    {"ab3", 1 << 10},     {"ab4", 1 << 9},               {"ab5", 1 << 8, false, 0.1},
    {"abm4", 1 << 10},
    {"yoshida6", 1 << 6},   {"trapezoid", 1 << 9},          {"gauss-legendre4", 1 << 7},
    {"gauss-legendre6", 1 << 6}, {"lobatto3ab4", 1 << 7},
    // Order 8 loses its line to fp64's rounding within three halvings: measured in float128.
    // yoshida8 over a unit of time: its weights' rounding to their grid (2^−51) leaves an error
    // O(h²) that meets its h⁸ line near 10³ steps per unit of time.
    {"yoshida8", 1 << 5, true, 0.5, kUnitTime}, {"gauss-legendre8", 1 << 6, true},
};

double register_error(const OrderCase& c, int steps) {
  KeplerOrbit<double> orbit;
  orbit.e = c.eccentricity;
  const double h = c.end_time / steps;
  const PairwiseGravity<2, double> gravity{{test::kKeplerMass, test::kKeplerMass}};
  BodyState<double, 2> s = test::kepler_bodies(orbit);
  visit_integrator(c.name, [&]<class Table>() {
    if constexpr (has_register_stepper<Table>)
      for (int i = 0; i < steps; ++i) register_step<Table>(s, h, gravity);
  });
  return test::kepler_error(orbit, s, steps * h);
}

template <class Real>
Real array_error_at(const std::string& name, int steps, Real end_time, double eccentricity = 0.5);

double array_error(const OrderCase& c, int steps) {
  return c.float128 ? static_cast<double>(array_error_at<float128>(
                          c.name, steps, float128(c.end_time), c.eccentricity))
                    : array_error_at<double>(c.name, steps, c.end_time, c.eccentricity);
}

template <class ErrorOf>
void expect_nominal_order(const OrderCase& c, ErrorOf error_of) {
  const int order = find_integrator(c.name).order;
  std::vector<double> h, error;
  for (int k = 0; k <= c.halvings; ++k) {
    const int steps = c.coarsest_steps << k;
    h.push_back(c.end_time / steps);
    error.push_back(error_of(c, steps));
  }
  const double slope = fitted_slope(h, error);
  std::string ratios;
  const double halving_ratio = std::pow(2.0, order);
  for (std::size_t i = 1; i < error.size(); ++i) {
    const double ratio = error[i - 1] / error[i];
    ratios += fmt::format(" {:.4f}", ratio);
    EXPECT_NEAR(ratio / halving_ratio, 1.0, c.ratio_tolerance)
        << c.name << ": halving " << i << " divides the error by " << ratio;
  }
  std::printf("%-11s %-8s order %2d: fitted %.4f (errors %.3e .. %.3e, halving ratios%s)\n",
              c.name.c_str(), c.float128 ? "float128" : "fp64", order, slope, error.front(),
              error.back(), ratios.c_str());
  EXPECT_NEAR(slope, order, c.tolerance) << c.name;
}

TEST(IntegratorConvergence, RegisterStepperOrderOnKeplerEqualsNominal) {
  for (const OrderCase& c : kOrderCases)
    if (!c.float128 && find_integrator(c.name).register_stepper)
      expect_nominal_order(c, register_error);
}

TEST(IntegratorConvergence, ArrayStepperOrderOnKeplerEqualsNominal) {
  for (const OrderCase& c : kOrderCases) expect_nominal_order(c, array_error);
}

// float128 continues the h⁴ line where fp64 has reached its rounding floor: RK4, one unit of
// time from the pericentre (a quarter of the way to apocentre, the fast part of the orbit),
// array stepper and direct engine. At 16 384 steps fp64's error is rounding (≈ 5·10⁻¹⁵, above
// its h⁴ prediction), while float128's follows C h⁴ with C from a coarse fp64 run.
constexpr double kFloat128EndTime = 1.0;
constexpr int kFloat128CoarseSteps = 1024;
constexpr int kFloat128FineSteps = 16384;
// float128's error may exceed the h⁴ extrapolation by this factor: the next term of the expansion,
// and the fp64 rounding of the non-dyadic coefficients 1/6, 1/3 (≈ 6·10⁻¹⁷ per unit time).
constexpr double kFloat128Slack = 3.0;
// fp64 at the fine step must be at least this much worse than float128 (measured: ~100×).
constexpr double kFloat128Gain = 10.0;

template <class Real>
Real array_error_at(const std::string& name, int steps, Real end_time, double eccentricity) {
  KeplerOrbit<Real> orbit;
  orbit.e = Real(eccentricity);
  const Real h = end_time / steps;
  const Real mass[2] = {Real(test::kKeplerMass), Real(test::kKeplerMass)};
  test::ArrayRun<Real, 2> run(name, test::kepler_bodies(orbit), mass);
  for (int i = 0; i < steps; ++i) run.step(h);
  return test::kepler_error(orbit, run.state(), Real(steps) * h);
}

TEST(IntegratorConvergence, Float128ContinuesBelowDoubleRounding) {
  const double coarse = array_error_at<double>("rk4", kFloat128CoarseSteps, kFloat128EndTime);
  const double fine64 = array_error_at<double>("rk4", kFloat128FineSteps, kFloat128EndTime);
  const double fine128 = static_cast<double>(
      array_error_at<float128>("rk4", kFloat128FineSteps, float128(kFloat128EndTime)));
  const double predicted = coarse * std::pow(double(kFloat128CoarseSteps) / kFloat128FineSteps, 4);
  std::printf("rk4 at %d steps: fp64 %.3e, float128 %.3e, C h^4 %.3e\n", kFloat128FineSteps, fine64,
              fine128, predicted);
  EXPECT_LE(fine128, kFloat128Slack * predicted);
  EXPECT_GE(fine64, kFloat128Gain * fine128);
}

}  // namespace
}  // namespace orrery
