// SPDX-License-Identifier: MIT
// The Adams–Bashforth register stepper on a circular Kepler orbit (GM = 1, r = 1, period 2π),
// against the exact solution x(t) = (cos t, sin t): the measured order of the global error is the
// method's when its history starts exact, and 2 when the first steps are explicit Euler (the
// published maps' starter: its local errors O(h²) on four steps dominate), which is why those
// maps are no more accurate than their step suggests.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "orrery/integrate/multistep/register_stepper.hpp"

namespace orrery {
namespace {

// Measured orders are within this of the expected: the ratio of two errors at h and h/2 on a
// smooth problem converges to 2^order up to terms of relative size O(h).
constexpr double kOrderTolerance = 0.15;

struct Kepler {
  void operator()(const Vec3<double> (&x)[1], Vec3<double> (&a)[1]) const {
    const double r2 = norm2(x[0]);
    const double k = -1.0 / (r2 * std::sqrt(r2));
    a[0] = {k * x[0].x, k * x[0].y, k * x[0].z};
  }
};

Vec3<double> exact_x(double t) { return {std::cos(t), std::sin(t), 0.0}; }
Vec3<double> exact_v(double t) { return {-std::sin(t), std::cos(t), 0.0}; }

// The position error after one period in `steps` steps; the history either exact (the values
// at t = −j h) or filled by the Euler starter.
template <class Table>
double error_after_one_period(int steps, bool exact_start) {
  const double h = 2 * std::numbers::pi / steps;
  BodyState<double, 1> s{{exact_x(0)}, {exact_v(0)}};
  AdamsHistory<Table, double, 1> f{};
  for (int j = 1; j < Table::steps; ++j) {
    f.v[j][0] = exact_v(-j * h);
    f.a[j][0] = -1.0 * exact_x(-j * h);
  }
  for (int n = 0; n < steps; ++n)
    adams_step(s, f, h, !exact_start && n < Table::starter_steps, Kepler{});
  const Vec3<double> d = s.x[0] - exact_x(2 * std::numbers::pi);
  return std::sqrt(norm2(d));
}

template <class Table>
double measured_order(int steps, bool exact_start) {
  return std::log2(error_after_one_period<Table>(steps, exact_start) /
                   error_after_one_period<Table>(2 * steps, exact_start));
}

TEST(AdamsBashforth, OrderTwoWithAnExactStart) {
  EXPECT_NEAR(measured_order<EulerStartedAdamsBashforth2>(2000, true), 2.0, kOrderTolerance);
}

TEST(AdamsBashforth, OrderFourWithAnExactStart) {
  EXPECT_NEAR(measured_order<EulerStartedAdamsBashforth4>(1600, true), 4.0, kOrderTolerance);
}

TEST(AdamsBashforth, TheEulerStarterLimitsBothToOrderTwo) {
  EXPECT_NEAR(measured_order<EulerStartedAdamsBashforth2>(2000, false), 2.0, kOrderTolerance);
  EXPECT_NEAR(measured_order<EulerStartedAdamsBashforth4>(2000, false), 2.0, kOrderTolerance);
  // and the starter is what costs ab4 its accuracy
  EXPECT_GT(error_after_one_period<EulerStartedAdamsBashforth4>(2000, false),
            100 * error_after_one_period<EulerStartedAdamsBashforth4>(2000, true));
}

TEST(AdamsBashforth, StartingStepsAreExplicitEulerBitForBit) {
  BodyState<double, 1> s{{exact_x(0)}, {exact_v(0)}}, e = s;
  AdamsHistory<EulerStartedAdamsBashforth4, double, 1> f{};
  const double h = 0.01;
  for (int n = 0; n < EulerStartedAdamsBashforth4::starter_steps; ++n) {
    adams_step(s, f, h, true, Kepler{});
    Vec3<double> a[1];
    Kepler{}(e.x, a);
    const Vec3<double> v_old = e.v[0];
    e.v[0] = mul_add(h, a[0], e.v[0]);
    e.x[0] = mul_add(h, v_old, e.x[0]);
    ASSERT_EQ(s.x[0].x, e.x[0].x);
    ASSERT_EQ(s.x[0].y, e.x[0].y);
    ASSERT_EQ(s.v[0].x, e.v[0].x);
    ASSERT_EQ(s.v[0].y, e.v[0].y);
  }
}

}  // namespace
}  // namespace orrery
