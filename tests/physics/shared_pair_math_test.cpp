// SPDX-License-Identifier: MIT
// The pair mathematics written once for the CPU and GPU (physics/inverse_cube_refined.hpp,
// physics/softened_pair.hpp, core/compensated_sum.hpp) evaluates exactly the operations its
// callers rely on: the GPU's fp64 factor keeps its bits only if the series is evaluated in
// InverseCubeFast's order, and the direct engine's bits only if r², the factor and TwoSum are
// the formulas written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "orrery/core/compensated_sum.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/physics/inverse_cube_refined.hpp"
#include "orrery/physics/softened_pair.hpp"

namespace orrery {
namespace {

constexpr int kSamples = 100000;

TEST(SharedPairMath, SeriesIsTheGpuFactorsOperationsInOrder) {
  // InverseCubeFast on the device: y2 = y·y; e = fma(−r², y2, 1); y3 = y2·y;
  // k = fma(y3, e·fma(e, 1.875, 1.5), y3).
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), seed(-0x1p-20, 0x1p-20);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int n = 0; n < kSamples; ++n) {
    const double r2 = std::ldexp(mantissa(rng), exponent(rng));
    const double y = (1 / std::sqrt(r2)) * (1 + seed(rng));
    const double y2 = y * y;
    const double e = std::fma(-r2, y2, 1.0);
    const double y3 = y2 * y;
    const double expected = std::fma(y3, e * std::fma(e, 1.875, 1.5), y3);
    ASSERT_EQ(inverse_cube_refined<2>(r2, y), expected) << r2 << " " << y;
  }
}

TEST(SharedPairMath, MassTimesTheSeriesScalesTheCubeFirst) {
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), seed(-0x1p-14, 0x1p-14), mass(0.1, 10);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int n = 0; n < kSamples; ++n) {
    const double r2 = std::ldexp(mantissa(rng), exponent(rng)), m = mass(rng);
    const double y = (1 / std::sqrt(r2)) * (1 + seed(rng));
    const double y2 = y * y;
    const double e = std::fma(-r2, y2, 1.0);
    const double c = m * (y2 * y);
    const double p = std::fma(std::fma(std::fma(2.4609375, e, 2.1875), e, 1.875), e, 1.5);
    ASSERT_EQ(mass_over_cube_refined<4>(r2, y, m), std::fma(c, e * p, c));
  }
}

TEST(SharedPairMath, SoftenedDistanceFactorAndPotentialTerm) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> coordinate(-5, 5), mass(0.1, 10), eps2(0, 0.01);
  for (int n = 0; n < kSamples; ++n) {
    const double dx = coordinate(rng), dy = coordinate(rng), dz = coordinate(rng);
    const double h = eps2(rng), mi = mass(rng), mj = mass(rng);
    const double r2 = std::fma(dz, dz, std::fma(dy, dy, std::fma(dx, dx, h)));
    ASSERT_EQ(softened_distance2(dx, dy, dz, h), r2);
    ASSERT_EQ(mass_over_cube_exact(r2, mj), mj / (r2 * std::sqrt(r2)));
    ASSERT_EQ(pair_potential_term(mi, mj, r2), mi * mj / std::sqrt(r2));
  }
}

TEST(SharedPairMath, TwoSumErrorIsExact) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::uniform_int_distribution<int> exponent(-80, 80);
  for (int n = 0; n < kSamples; ++n) {
    const double a = std::ldexp(mantissa(rng), exponent(rng));
    const double b = std::ldexp(mantissa(rng), exponent(rng));
    double error = 0;
    const double s = two_sum(a, b, error);
    ASSERT_EQ(s, a + b);
    ASSERT_TRUE(static_cast<float128>(s) + error == static_cast<float128>(a) + b) << a << " " << b;
  }
}

TEST(SharedPairMath, CompensatedSumGivesNeumaiersBits) {
  // Neumaier's branch on the larger magnitude recovers the same exact error as TwoSum.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  for (int run = 0; run < 200; ++run) {
    double sum = 0, carry = 0;
    CompensatedSum<double> compensated;
    for (int i = 0; i < 1000; ++i) {
      const double x = std::ldexp(mantissa(rng), exponent(rng));
      const double t = sum + x;
      carry += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
      compensated.add(x);
    }
    ASSERT_EQ(compensated.value(), sum + carry) << "run " << run;
  }
}

}  // namespace
}  // namespace orrery
