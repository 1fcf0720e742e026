// SPDX-License-Identifier: MIT
// The error norm of the step controls (core/error_norm.hpp): LargestScaledError, which finds the
// largest |e_i| / (atol + rtol·max(|y_i|, |z_i|)) with one division, gives the largest of
// scaled_error's quotients bit for bit on random components of every size (where no two
// quotients lie within a rounding of each other), keeps a NaN once met, and gives 0 for an
// error of zero; and the step factors (runge_kutta/step_control.hpp): `orrery sim`'s is the
// fp64 formula as written, the ensembles' (its power in single precision) within float's
// rounding of it, and both end at the clamp's bounds for errors of 0, tiny, huge and infinite.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "orrery/core/error_norm.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/runge_kutta/step_control.hpp"

namespace orrery {
namespace {

constexpr double kTol = 1e-8;

double largest_by_division(const std::vector<double>& e, const std::vector<double>& y,
                           const std::vector<double>& z) {
  double m = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double q = scaled_error(e[i], y[i], z[i], kTol, kTol);
    if (q > m || q != q) m = q;
    if (m != m) break;
  }
  return m;
}

double largest_by_comparison(const std::vector<double>& e, const std::vector<double>& y,
                             const std::vector<double>& z) {
  LargestScaledError<double> l(e[0], y[0], z[0], kTol, kTol);
  for (std::size_t i = 1; i < e.size(); ++i) l.add(e[i], y[i], z[i], kTol, kTol);
  return l.value();
}

TEST(ErrorNorm, OneDivisionGivesTheLargestQuotientBitForBit) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 10), size(1, 18);
  auto draw = [&] { return std::ldexp(mantissa(rng), exponent(rng)); };
  for (int trial = 0; trial < 100000; ++trial) {
    const int n = size(rng);
    std::vector<double> e(n), y(n), z(n);
    for (int i = 0; i < n; ++i) e[i] = draw(), y[i] = draw(), z[i] = draw();
    const double a = largest_by_division(e, y, z), b = largest_by_comparison(e, y, z);
    ASSERT_EQ(a, b) << "trial " << trial << " of " << n << " components";
  }
}

TEST(ErrorNorm, ZeroErrorAndNaNs) {
  EXPECT_EQ(largest_by_comparison({0, 0, 0}, {1, 2, 3}, {1, 2, 3}), 0.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int at = 0; at < 3; ++at) {
    std::vector<double> e{1e-9, 3e-9, 2e-9};
    e[at] = nan;
    EXPECT_TRUE(std::isnan(largest_by_comparison(e, {1, 1, 1}, {1, 1, 1}))) << "NaN at " << at;
  }
}

TEST(StepFactor, SinglePrecisionPowerAgreesWithTheFp64FormulaAndClamps) {
  using Control = EmbeddedStepControl<Tsitouras5>;
  const double q = Control::kErrorExponent;
  for (double err = 1e-6; err < 1e6; err *= 1.37) {
    const double exact = std::clamp(0.9 * std::pow(err, -q), 0.2, 5.0);
    EXPECT_EQ(Control::factor(err), exact) << "err " << err;  // sim's: the formula as written
    // float's rounding of err, of the power and of the product: a few 2⁻²⁴.
    EXPECT_NEAR(Control::fast_factor(err), exact, 8 * 0x1p-24 * exact) << "err " << err;
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Control::fast_factor(0.0), 5.0);
  EXPECT_EQ(Control::fast_factor(1e-300), 5.0);  // 0 in float
  EXPECT_EQ(Control::fast_factor(1e300), 0.2f);  // +∞ in float
  EXPECT_EQ(Control::fast_factor(inf), 0.2f);
  EXPECT_TRUE(std::isnan(Control::fast_factor(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(Control::factor(0.0), 5.0);
  EXPECT_EQ(Control::factor(inf), 0.2);
  EXPECT_TRUE(std::isnan(Control::factor(std::numeric_limits<double>::quiet_NaN())));
}

}  // namespace
}  // namespace orrery
