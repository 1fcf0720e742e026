// SPDX-License-Identifier: MIT
// Kepler's equation: the solver's E satisfies M = E − e sin E (M = e sinh F − F) to rounding for
// every e up to 1 − 10⁻¹³ and beyond 1, from M of 10⁻³⁰⁰ to 10¹², checked against the equation
// evaluated in long double by its own series; the anomalies convert both ways; bad e, M and f
// are refused with the value named.
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/physics/kepler_equation.hpp"

namespace orrery {
namespace {

using std::numbers::pi;

// A root correct to rounding leaves a residual of a few ulp of the equation's terms: of M where
// |E| < 1 (the terms (1 − e) E and e (E − sin E) are positive and add up to M), of E itself
// beyond (E and e sin E cancel), and the slope times one ulp of E. 16 ulp leaves room for the
// series' and sin's own roundings; a solver that stops at a relative step of 10⁻¹², or that
// evaluates E − e sin E as written (an absolute error of ε E, far beyond ε M near pericentre of
// an orbit with e → 1), fails it.
constexpr double kResidualUlps = 16.0;
constexpr double kEps = std::numeric_limits<double>::epsilon();
// An angle carried through two conversions (a tangent of half angles, Kepler's equation solved
// to its residual): a few thousand ulp of 2π at e = 0.999, where the half-angle factor
// √((1 + e)/(1 − e)) ≈ 45 magnifies the rounding of tan(E/2).
constexpr double kAngleRoundTrip = 1e-12;
// One conversion of a well-conditioned value (e = 0.5, away from pericentre): a few ulp.
constexpr double kAngleFewUlps = 1e-15;

// E − sin E (sinh F − F for a hyperbola) in long double, by its series below 1.
long double odd_part(long double x, bool hyperbolic) {
  if (std::abs(x) >= 1.0L) return hyperbolic ? std::sinh(x) - x : x - std::sin(x);
  long double term = x * x * x / 6.0L, sum = 0.0L;
  for (int k = 2; k < 14; ++k) {
    sum += term;
    term *= (hyperbolic ? x * x : -x * x) / ((2.0L * k) * (2.0L * k + 1.0L));
  }
  return sum;
}

void expect_root(double e, double mean) {
  const double x = eccentric_anomaly(e, mean);
  ASSERT_TRUE(std::isfinite(x)) << "e = " << e << ", M = " << mean;
  // The ellipse's M is taken modulo 2π: compare with the M of [0, 2π) it stands for.
  const double m = e < 1.0 ? wrap_two_pi(mean) : mean;
  const bool hyperbolic = e > 1.0;
  const long double X = x, ee = e, half = 0.5L * X;
  const long double lhs = (hyperbolic ? ee - 1.0L : 1.0L - ee) * X + ee * odd_part(X, hyperbolic);
  const long double slope = hyperbolic ? (ee - 1.0L) + 2.0L * ee * std::sinh(half) * std::sinh(half)
                                       : (1.0L - ee) + 2.0L * ee * std::sin(half) * std::sin(half);
  const double scale = std::abs(m) + static_cast<double>(slope) * std::abs(x) +
                       (std::abs(x) >= 1.0 ? std::abs(x) + e : 0.0);
  EXPECT_LE(std::abs(static_cast<double>(static_cast<long double>(m) - lhs)),
            kResidualUlps * kEps * scale)
      << "e = " << e << ", M = " << mean << ", E = " << x;
}

TEST(KeplerEquation, EllipseRootsToRounding) {
  for (double e : {0.0, 1e-12, 1e-3, 0.1, 0.5, 0.9, 0.99, 0.999, 0.999999, 1.0 - 1e-9,
                   1.0 - 1e-13})
    for (double mean : {0.0, 1e-300, 1e-12, 1e-6, 0.01, 0.5, 1.0, 2.0, 3.0, pi, 3.2, 4.0, 6.0,
                        6.283185307179586, -1e-10, -0.3, -5.0, 100.0, -1e6, 1e9})
      expect_root(e, mean);
}

TEST(KeplerEquation, HyperbolaRootsToRounding) {
  for (double e : {1.0 + 1e-12, 1.0 + 1e-6, 1.001, 1.1, 1.5, 2.0, 5.0, 100.0, 1e6})
    for (double mean : {0.0, 1e-300, 1e-12, 1e-6, 0.01, 0.5, 1.0, 3.0, 10.0, 1e3, 1e6, 1e12,
                        -1e-8, -2.0, -1e9})
      expect_root(e, mean);
}

// Near pericentre of an orbit with e → 1 the residual stays within ulps of M itself, though
// E ≈ ∛(6M) is a million times larger than M.
TEST(KeplerEquation, NearlyParabolicPericentreKeepsRelativePrecision) {
  for (double e : {1.0 - 1e-15, 1.0 - 1e-9, 1.0 + 1e-15, 1.0 + 1e-9})
    for (double mean : {1e-18, 1e-14, 1e-10}) expect_root(e, mean);
}

TEST(KeplerEquation, AnomaliesConvertBothWays) {
  for (double e : {0.0, 0.3, 0.9, 0.999}) {
    for (double f : {0.0, 0.4, 2.0, 3.0, 4.5, 6.2}) {
      const double E = eccentric_anomaly_of_true(e, f);
      EXPECT_NEAR(std::remainder(true_anomaly_of_eccentric(e, E) - f, 2 * pi), 0.0,
                  kAngleRoundTrip)
          << e << " " << f;
      const double mean = mean_anomaly_of_eccentric(e, E);
      EXPECT_NEAR(std::remainder(eccentric_anomaly(e, mean) - E, 2 * pi), 0.0,
                  kAngleRoundTrip)
          << e << " " << f;
    }
  }
  for (double e : {1.2, 3.0}) {
    const double limit = std::acos(-1.0 / e);
    for (double s : {-0.99, -0.5, 0.0, 0.3, 0.99}) {
      const double f = s * limit;
      const double F = eccentric_anomaly_of_true(e, f);
      EXPECT_NEAR(true_anomaly_of_eccentric(e, F), f, kAngleRoundTrip) << e << " " << f;
      EXPECT_NEAR(eccentric_anomaly(e, mean_anomaly_of_eccentric(e, F)), F,
                  kAngleRoundTrip * (1 + std::abs(F)))
          << e << " " << f;
    }
  }
  // Known values: E = π/2 on an ellipse of e = 0.5 is M = π/2 − 0.5 and f = acos(−e).
  EXPECT_NEAR(eccentric_anomaly(0.5, pi / 2 - 0.5), pi / 2, kAngleFewUlps);
  EXPECT_NEAR(true_anomaly_of_eccentric(0.5, pi / 2), std::acos(-0.5), kAngleFewUlps);
}

template <class F>
void expect_refusal(F f, const std::string& parameter) {
  try {
    f();
    ADD_FAILURE() << "no error for " << parameter;
  } catch (const ParameterError& err) {
    EXPECT_EQ(err.parameter(), parameter) << err.what();
  }
}

TEST(KeplerEquation, RefusesWhatHasNoSolution) {
  expect_refusal([] { eccentric_anomaly(1.0, 0.5); }, "e");
  expect_refusal([] { eccentric_anomaly(-0.1, 0.5); }, "e");
  expect_refusal([] { eccentric_anomaly(NAN, 0.5); }, "e");
  expect_refusal([] { eccentric_anomaly(0.5, INFINITY); }, "M");
  expect_refusal([] { eccentric_anomaly(2.0, NAN); }, "M");
  // Beyond the asymptotes of e = 2 (|f| < 2π/3).
  expect_refusal([] { eccentric_anomaly_of_true(2.0, 2.2); }, "f");
  expect_refusal([] { true_anomaly_of_eccentric(1.0, 0.1); }, "e");
}

TEST(KeplerEquation, WrapsIntoZeroToTwoPi) {
  for (double x : {-1e-17, -7.0, 0.0, 6.283185307179586, 13.0, -1e-300}) {
    const double w = wrap_two_pi(x);
    EXPECT_GE(w, 0.0) << x;
    EXPECT_LT(w, 2 * pi) << x;
  }
}

}  // namespace
}  // namespace orrery
