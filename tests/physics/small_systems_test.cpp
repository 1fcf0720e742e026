// SPDX-License-Identifier: MIT
// The right-hand sides of the ensemble problems: Hénon–Heiles' acceleration against central
// differences of its potential, Lorenz against its equations typed here, for double and float
// and SIMD lanes alike.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "orrery/core/simd.hpp"
#include "orrery/physics/henon_heiles.hpp"
#include "orrery/physics/lorenz.hpp"

namespace orrery {
namespace {

// Central differences with step 1e-5 have error h² V''' / 6 ~ 1e-10 here, rounding ~ ε/h ~ 1e-11.
constexpr double kFiniteDifferenceTolerance = 1e-9;
// A few roundings of values of order 1 (the saddles' coordinates are themselves rounded).
constexpr double kFewRoundings = 1e-15;
// The equations typed here round in another order than the field's fused multiply-adds: a few
// roundings of the largest term, which `scale` bounds.
constexpr double kReorderedRounding = 1e-14;

TEST(HenonHeiles, AccelerationIsMinusTheGradientOfThePotential) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> u(-0.8, 0.8);
  const double h = 1e-5;
  for (int trial = 0; trial < 100; ++trial) {
    const double q[2] = {u(random), u(random)};
    double a[2];
    henon_heiles_acceleration(q, a);
    const double dvdx = (henon_heiles_potential(q[0] + h, q[1]) -
                         henon_heiles_potential(q[0] - h, q[1])) / (2 * h);
    const double dvdy = (henon_heiles_potential(q[0], q[1] + h) -
                         henon_heiles_potential(q[0], q[1] - h)) / (2 * h);
    EXPECT_NEAR(a[0], -dvdx, kFiniteDifferenceTolerance);
    EXPECT_NEAR(a[1], -dvdy, kFiniteDifferenceTolerance);
  }
}

TEST(HenonHeiles, EscapeEnergyIsTheSaddle) {
  // The saddles of V at (0, 1) and (±√3/2, −1/2) have V = 1/6, and a vanishes there.
  const double saddles[3][2] = {{0, 1}, {std::sqrt(3.0) / 2, -0.5}, {-std::sqrt(3.0) / 2, -0.5}};
  for (const auto& s : saddles) {
    double a[2];
    const double q[2] = {s[0], s[1]};
    henon_heiles_acceleration(q, a);
    EXPECT_NEAR(a[0], 0, kFewRoundings);
    EXPECT_NEAR(a[1], 0, kFewRoundings);
    EXPECT_NEAR(henon_heiles_potential(s[0], s[1]), 1.0 / 6.0, kFewRoundings);
  }
}

TEST(HenonHeiles, SimdLanesGiveTheScalarBits) {
  using V = stdx::native_simd<double>;
  V x, y;
  for (std::size_t l = 0; l < V::size(); ++l) x[l] = 0.1 * l - 0.3, y[l] = 0.05 * l - 0.2;
  const V q[2] = {x, y};
  V a[2];
  henon_heiles_acceleration(q, a);
  for (std::size_t l = 0; l < V::size(); ++l) {
    const double s[2] = {x[l], y[l]};
    double b[2];
    henon_heiles_acceleration(s, b);
    EXPECT_EQ(a[0][l], b[0]);
    EXPECT_EQ(a[1][l], b[1]);
  }
}

TEST(Lorenz, DerivativeIsTheLorenzSystem) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> u(-20, 20);
  for (int trial = 0; trial < 100; ++trial) {
    const LorenzParameters<double> p{10.0, u(random), 8.0 / 3.0};
    const double y[3] = {u(random), u(random), u(random) + 20};
    double d[3];
    lorenz_derivative(p, y, d);
    const double scale = 1 + std::abs(y[0] * y[1]) + std::abs(y[0] * y[2]);
    EXPECT_NEAR(d[0], p.sigma * (y[1] - y[0]), kReorderedRounding * scale);
    EXPECT_NEAR(d[1], y[0] * (p.rho - y[2]) - y[1], kReorderedRounding * scale);
    EXPECT_NEAR(d[2], y[0] * y[1] - p.beta * y[2], kReorderedRounding * scale);
  }
}

}  // namespace
}  // namespace orrery
