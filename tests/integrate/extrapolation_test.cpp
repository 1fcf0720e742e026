// SPDX-License-Identifier: MIT
// Gragg–Bulirsch–Stoer extrapolation (integrate/extrapolation/): k columns at a fixed step have
// order 2k on a Kepler orbit against the analytic solution; under the order and step control the
// error of an e = 0.9 orbit follows the tolerance, in fp32, fp64 and fp128; a rejected step leaves
// the state's bits; a run resumed from the saved control state takes the same steps bit for bit,
// and the loaded state is the one used.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "array_run.hpp"
#include "fitted_slope.hpp"
#include "kepler_orbit.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/extrapolation/array_stepper.hpp"
#include "orrery/integrate/integrator_registry.hpp"

namespace orrery {
namespace {

using test::fitted_slope;
using test::KeplerOrbit;

// As in integrator_convergence_test.cpp: a generic phase of the e = 0.5 orbit (period 2π).
constexpr double kEndTime = 5.0;
constexpr int kHalvings = 3;
// The fitted slope may differ from 2k by this much: over the ranges below the next term of the
// expansion (a further power of h²) bends it by less than 0.1; a column short is off by 2.
constexpr double kOrderTolerance = 0.15;

struct ColumnCase {
  int columns;
  int coarsest_steps;  // over kEndTime; the fit takes it and kHalvings halvings
  bool float128;       // fp64's rounding would end the range before its asymptotic part
};
// Each range lies in the asymptotic regime (log₂ of the halving ratios, printed, within 0.1 of
// 2k) and well above the precision's rounding: from 3 columns on that takes fp128, whose errors
// reach 10⁻²⁸ (fp64 stops near 10⁻¹³).
const ColumnCase kColumnCases[] = {
    {1, 256, false}, {2, 512, false}, {3, 128, true},
    {4, 128, true},  {5, 64, true},   {6, 64, true},
};

template <class Real>
double kepler_error_with(int columns, int steps) {
  const KeplerOrbit<Real> orbit;
  const Real h = Real(kEndTime) / steps;
  const Real mass[2] = {Real(test::kKeplerMass), Real(test::kKeplerMass)};
  test::ArrayRun<Real, 2> run("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  ExtrapolationArrayStepper<BulirschStoer, Real> stepper(0.0, columns);
  for (int i = 0; i < steps; ++i) stepper.step(run.engine(), run.x(), run.v(), h);
  return static_cast<double>(test::kepler_error(orbit, run.state(), Real(steps) * h));
}

TEST(Extrapolation, KColumnsConvergeWithOrder2k) {
  for (const ColumnCase& c : kColumnCases) {
    std::vector<double> h, error;
    for (int k = 0; k <= kHalvings; ++k) {
      const int steps = c.coarsest_steps << k;
      h.push_back(kEndTime / steps);
      error.push_back(c.float128 ? kepler_error_with<float128>(c.columns, steps)
                                 : kepler_error_with<double>(c.columns, steps));
    }
    const double slope = fitted_slope(h, error);
    std::printf("%d columns%s: order %d, fitted %.4f (errors %.3e .. %.3e, log2 of halving ratios",
                c.columns,
                c.float128 ? " (fp128)" : "", 2 * c.columns, slope, error.front(), error.back());
    for (std::size_t i = 1; i < error.size(); ++i)
      std::printf(" %.2f", std::log2(error[i - 1] / error[i]));
    std::printf(")\n");
    EXPECT_NEAR(slope, 2 * c.columns, kOrderTolerance) << c.columns << " columns";
  }
}

// The registry's fixed-step bulirsch-stoer is Table::fixed_columns columns: order 8.
TEST(Extrapolation, TheRegistryMethodIsItsFixedColumns) {
  EXPECT_EQ(find_integrator("bulirsch-stoer").order, 2 * BulirschStoer::fixed_columns);
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  const KeplerOrbit<double> orbit;
  test::ArrayRun<double, 2> run("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  for (int i = 0; i < 8; ++i) run.step(0.25);
  const BodyState<double, 2> got = run.state();
  test::ArrayRun<double, 2> same("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  ExtrapolationArrayStepper<BulirschStoer, double> stepper(0.0, BulirschStoer::fixed_columns);
  for (int i = 0; i < 8; ++i) stepper.step(same.engine(), same.x(), same.v(), 0.25);
  const BodyState<double, 2> expected = same.state();
  EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0);
}

struct Controlled {
  double error = 0;
  int accepted = 0, rejected = 0;
  int least_columns = 99, most_columns = 0;
};

// One period of the e = 0.9 orbit under step control from a first step of 10⁻³.
template <class Real>
Controlled one_period(double tolerance) {
  KeplerOrbit<Real> orbit;
  orbit.e = Real(0.9);
  const Real mass[2] = {Real(test::kKeplerMass), Real(test::kKeplerMass)};
  test::ArrayRun<Real, 2> run("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  ExtrapolationArrayStepper<BulirschStoer, Real> stepper(tolerance);
  const Real end = orbit.period();
  Controlled o;
  Real t = 0, h = Real(1e-3);
  while (t < end && o.accepted + o.rejected < 100000) {
    const Real step = std::min(h, end - t);
    const StepReport<Real> r = stepper.step(run.engine(), run.x(), run.v(), step);
    (r.accepted ? o.accepted : o.rejected) += 1;
    if (r.accepted) t += step;
    h = r.next;
    StepperState<Real> state;
    stepper.save(run.engine(), state);
    const int columns = static_cast<int>(state.scalar("columns"));
    o.least_columns = std::min(o.least_columns, columns);
    o.most_columns = std::max(o.most_columns, columns);
  }
  o.error = static_cast<double>(test::kepler_error(orbit, run.state(), end));
  return o;
}

// Each tighter tolerance below (100× in fp64 and fp32, 10⁴× in fp128) must cut the error of a
// period at least this much: it follows the tolerance about proportionally (measured 110–250×).
constexpr double kLeastGainPerHundredfold = 10;
// The error of a period against the tolerance (measured 800–4 000 times it: the local errors of
// the pericentre passage, accumulated and carried on as a phase error).
constexpr double kMostErrorPerTolerance = 1e4;

template <class Real>
void expect_error_follows_tolerance(std::initializer_list<double> tolerances, const char* what) {
  double previous = 0;
  for (double tolerance : tolerances) {
    const Controlled o = one_period<Real>(tolerance);
    std::printf("%s tol %.0e: error %.2e, %d steps (%d rejected), columns %d..%d\n", what,
                tolerance, o.error, o.accepted, o.rejected, o.least_columns, o.most_columns);
    if (previous > 0) {
      EXPECT_LT(o.error, previous / kLeastGainPerHundredfold) << tolerance;
    }
    previous = o.error;
    EXPECT_LT(o.error, kMostErrorPerTolerance * tolerance) << what << " " << tolerance;
  }
}

TEST(Extrapolation, TheErrorFollowsTheTolerance) {
  expect_error_follows_tolerance<double>({1e-6, 1e-8, 1e-10, 1e-12}, "fp64");
  expect_error_follows_tolerance<float>({1e-3, 1e-5}, "fp32");  // fp32 stops near 5·10⁻³
  expect_error_follows_tolerance<float128>({1e-14, 1e-18}, "fp128");
}

TEST(Extrapolation, ARejectedStepLeavesTheStateUntouched) {
  KeplerOrbit<double> orbit;
  orbit.e = 0.9;
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  auto stepper = make_array_stepper<double>("bulirsch-stoer", 1e-12);
  const BodyState<double, 2> before = run.state();
  const StepReport<double> r = stepper->step(run.engine(), run.x(), run.v(), 3.0);  // far too long
  EXPECT_FALSE(r.accepted);
  EXPECT_EQ(r.taken, 0.0);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_GT(*r.error, 1.0);
  EXPECT_LT(r.next, 3.0);
  const BodyState<double, 2> after = run.state();
  EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
}

// Steps of a controlled run, the next h carried as a run's clock carries it.
template <class Real>
void controlled_steps(ArrayStepper<Real>& stepper, test::ArrayRun<Real, 2>& run, Real& h,
                      int accepted) {
  for (int n = 0; n < accepted;) {
    const StepReport<Real> r = stepper.step(run.engine(), run.x(), run.v(), h);
    h = r.next;
    n += r.accepted;
  }
}

// Stopped after an accepted step and resumed on a fresh stepper from the saved state (and h):
// the same bits as the uninterrupted run. A state with another order gives other bits.
TEST(Extrapolation, AResumedRunTakesTheSameSteps) {
  constexpr double kTolerance = 1e-10;
  constexpr int kFirst = 25, kRest = 25;
  KeplerOrbit<double> orbit;
  orbit.e = 0.9;
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  auto fresh = [&] {
    return test::ArrayRun<double, 2>("bulirsch-stoer", test::kepler_bodies(orbit), mass);
  };
  auto whole = fresh();
  auto whole_stepper = make_array_stepper<double>("bulirsch-stoer", kTolerance);
  double h_whole = 1e-3;
  controlled_steps(*whole_stepper, whole, h_whole, kFirst + kRest);

  auto first = fresh();
  auto first_stepper = make_array_stepper<double>("bulirsch-stoer", kTolerance);
  double h = 1e-3;
  controlled_steps(*first_stepper, first, h, kFirst);
  StepperState<double> saved;
  first_stepper->save(first.engine(), saved);
  ASSERT_EQ(saved.scalars().size(), 3u);
  EXPECT_EQ(saved.scalar("started"), 1.0);

  test::ArrayRun<double, 2> resumed("bulirsch-stoer", first.state(), mass);
  auto resumed_stepper = make_array_stepper<double>("bulirsch-stoer", kTolerance);
  resumed_stepper->load(resumed.engine(), saved);
  double h_resumed = h;
  controlled_steps(*resumed_stepper, resumed, h_resumed, kRest);
  const BodyState<double, 2> a = whole.state(), b = resumed.state();
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_EQ(h_resumed, h_whole);

  // Two columns fewer or more: one fewer may end on the same line, with the same bits.
  StepperState<double> other = saved;
  const double columns = saved.scalar("columns");
  other.set_scalar("columns", columns > 3 ? columns - 2 : columns + 2);
  test::ArrayRun<double, 2> altered("bulirsch-stoer", first.state(), mass);
  auto altered_stepper = make_array_stepper<double>("bulirsch-stoer", kTolerance);
  altered_stepper->load(altered.engine(), other);
  double h_altered = h;
  controlled_steps(*altered_stepper, altered, h_altered, 1);
  test::ArrayRun<double, 2> one("bulirsch-stoer", first.state(), mass);
  resumed_stepper->load(one.engine(), saved);
  double h_one = h;
  controlled_steps(*resumed_stepper, one, h_one, 1);
  const BodyState<double, 2> c = altered.state(), d = one.state();
  EXPECT_TRUE(std::memcmp(&c, &d, sizeof c) != 0 || h_altered != h_one)
      << "the loaded order was not used";
}

TEST(Extrapolation, LoadRefusesAStateItCannotHaveSaved) {
  const double mass[2] = {test::kKeplerMass, test::kKeplerMass};
  test::ArrayRun<double, 2> run("bulirsch-stoer", test::kepler_bodies(KeplerOrbit<double>{}), mass);
  auto controlled = make_array_stepper<double>("bulirsch-stoer", 1e-8);
  StepperState<double> state;
  controlled->save(run.engine(), state);
  for (double columns : {1.0, 2.5, double(BulirschStoer::max_lines)}) {
    StepperState<double> bad = state;
    bad.set_scalar("columns", columns);
    EXPECT_THROW(controlled->load(run.engine(), bad), InputError) << columns;
  }
  EXPECT_THROW(controlled->load(run.engine(), StepperState<double>()), InputError);
  auto fixed = make_array_stepper<double>("bulirsch-stoer");
  EXPECT_THROW(fixed->load(run.engine(), state), InputError);
}

}  // namespace
}  // namespace orrery
