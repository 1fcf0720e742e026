// SPDX-License-Identifier: MIT
// The figure-eight choreography of three equal masses (C. Moore, PRL 70, 3675 (1993);
// A. Chenciner & R. Montgomery, Ann. Math. 152, 881 (2000); initial data of C. Simó):
//
//   x₁ = −x₂ = (0.97000436, −0.24308753), x₃ = 0, v₃ = (−0.93240737, −0.86473146),
//   v₁ = v₂ = −v₃/2, G = m = 1, period T = 6.32591398
//
// After one period every body is back at its start. Two errors separate that from zero: the
// method's, C h^p, and the data's own, since they are given to 8–9 digits. The method's error is
// measured by Richardson extrapolation from runs at h, h/2 and h/4 (whose differences must
// shrink by 2^p, showing the asymptotic regime), and the return must then lie within
// kRichardsonSafety · C h^p + kDataFloor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "orrery/physics/pairwise_gravity.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/register_integrator.hpp"

namespace orrery {
namespace {

constexpr double kPeriod = 6.32591398;

// The exact flow from the published 8-decimal data returns to within 4.1·10⁻⁸ (measured with
// RK4 at 25 600 steps and in float128; data rounded at 5·10⁻⁹, amplified over one period); the
// floor allows a factor 2.5.
constexpr double kDataFloor = 1e-7;
// Successive differences must shrink by 2^p within this factor: the next term of the error
// expansion is still a few percent at the coarsest steps used.
constexpr double kRatioTolerance = 1.25;
// The Richardson estimate C h^p is accurate to the next term (≲ 25 %, by the ratio check);
// twice the estimate bounds the method's error.
constexpr double kRichardsonSafety = 2.0;

BodyState<double, 3> figure_eight() {
  BodyState<double, 3> s;
  s.x[0] = {0.97000436, -0.24308753, 0.0};
  s.x[1] = {-0.97000436, 0.24308753, 0.0};
  s.x[2] = {0.0, 0.0, 0.0};
  s.v[2] = {-0.93240737, -0.86473146, 0.0};
  s.v[0] = {-s.v[2].x / 2, -s.v[2].y / 2, 0.0};
  s.v[1] = s.v[0];
  return s;
}

// The largest distance of any body's position or velocity between two states.
double distance(const BodyState<double, 3>& a, const BodyState<double, 3>& b) {
  double d = 0;
  for (int n = 0; n < 3; ++n)
    d = std::max({d, std::sqrt(norm2(a.x[n] - b.x[n])), std::sqrt(norm2(a.v[n] - b.v[n]))});
  return d;
}

template <class Table>
BodyState<double, 3> after_one_period(int steps) {
  const PairwiseGravity<3, double> gravity{{1.0, 1.0, 1.0}};
  BodyState<double, 3> s = figure_eight();
  const double h = kPeriod / steps;
  for (int i = 0; i < steps; ++i) register_step<Table>(s, h, gravity);
  return s;
}

template <class Table>
void expect_return_after_one_period(int steps) {
  constexpr double growth = 1 << Table::order;
  const BodyState<double, 3> coarse = after_one_period<Table>(steps);
  const BodyState<double, 3> middle = after_one_period<Table>(2 * steps);
  const BodyState<double, 3> fine = after_one_period<Table>(4 * steps);
  const double d_coarse = distance(coarse, middle), d_middle = distance(middle, fine);
  const double ratio = d_coarse / d_middle;
  EXPECT_GE(ratio, growth / kRatioTolerance) << Table::name;
  EXPECT_LE(ratio, growth * kRatioTolerance) << Table::name;
  // x_h − x_{h/2} = C h^p (1 − 2^−p): the method's error at each step size.
  const double method_coarse = d_coarse / (1 - 1 / growth);
  const double method_middle = d_middle / (1 - 1 / growth);
  const double method_fine = method_middle / growth;
  const BodyState<double, 3> start = figure_eight();
  std::printf("%s, %d steps: differences %.3e %.3e (ratio %.2f); return %.3e %.3e %.3e\n",
              Table::name, steps, d_coarse, d_middle, ratio, distance(coarse, start),
              distance(middle, start), distance(fine, start));
  EXPECT_LE(distance(coarse, start), kRichardsonSafety * method_coarse + kDataFloor);
  EXPECT_LE(distance(middle, start), kRichardsonSafety * method_middle + kDataFloor);
  EXPECT_LE(distance(fine, start), kRichardsonSafety * method_fine + kDataFloor);
}

// RK4 needs 800 steps per period to be in its asymptotic regime (the ratio is 21 at 400, 18 at
// 800); the error at 800 steps is 2·10⁻⁸.
TEST(FigureEight, Rk4ReturnsAfterOnePeriod) { expect_return_after_one_period<ClassicRK4>(800); }

// Yoshida's error constant is larger (6·10⁻⁶ at 400 steps) but it is asymptotic from 200 steps.
TEST(FigureEight, Yoshida4ReturnsAfterOnePeriod) { expect_return_after_one_period<Yoshida4>(200); }

}  // namespace
}  // namespace orrery
