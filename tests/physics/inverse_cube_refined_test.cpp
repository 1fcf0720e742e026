// SPDX-License-Identifier: MIT
// The refined pair factor m·(r²)^{−3/2} (physics/inverse_cube_refined.hpp) from estimates at the
// worst relative error the hardware promises, against quadruple precision: within 3.5 u plus
// the terms scaled by |e| (the header's bound), for each (estimate, precision, terms) the CPU
// kernels use.
#include "orrery/physics/inverse_cube_refined.hpp"

#include <gtest/gtest.h>

#include <random>

#include "orrery/core/float128.hpp"

namespace orrery {
namespace {

template <class Real>
constexpr double kUnitRoundoff = std::is_same_v<Real, float> ? 0x1p-24 : 0x1p-53;

// 3.5 u from the roundings of y₀², y₀³, m·y₀³ and the last fma; the polynomial's own rounding
// (≤ 3 u·|e| ≤ 0.01 u) and the truncation (≤ 0.02 u) fill the rest.
constexpr double kRefinedBoundUlps = 3.55;

template <class Real, int Terms>
double worst_relative_error(double seed_error) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), mass(0.1, 10.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  double worst = 0;
  for (int n = 0; n < 20000; ++n) {
    const Real r2 = static_cast<Real>(std::ldexp(mantissa(rng), exponent(rng)));
    const Real m = static_cast<Real>(mass(rng));
    const float128 exact_rsqrt = 1 / sqrtq(static_cast<float128>(r2));
    // Estimates at (just inside) either end of the promised error.
    for (double sign : {-1.0, 1.0}) {
      const Real y0 =
          static_cast<Real>(exact_rsqrt * (1 + static_cast<float128>(sign * seed_error)));
      const Real k = mass_over_cube_refined<Terms>(r2, y0, m);
      const float128 exact = static_cast<float128>(m) * exact_rsqrt * exact_rsqrt * exact_rsqrt;
      const double rel = static_cast<double>(fabsq((static_cast<float128>(k) - exact) / exact));
      worst = std::max(worst, rel);
    }
  }
  return worst / kUnitRoundoff<Real>;
}

TEST(InverseCubeRefined, Avx512Fp64FourTermsFromRsqrt14) {
  EXPECT_LE((worst_relative_error<double, 4>(0x1p-14 * 0.999)), kRefinedBoundUlps);
}

TEST(InverseCubeRefined, Avx512Fp32TwoTermsFromRsqrt14) {
  EXPECT_LE((worst_relative_error<float, 2>(0x1p-14 * 0.999)), kRefinedBoundUlps);
}

TEST(InverseCubeRefined, Avx2Fp64FiveTermsFromRsqrtps) {
  EXPECT_LE((worst_relative_error<double, 5>(1.5 * 0x1p-12 * 0.999)), kRefinedBoundUlps);
}

TEST(InverseCubeRefined, Avx2Fp32TwoTermsFromRsqrtps) {
  EXPECT_LE((worst_relative_error<float, 2>(1.5 * 0x1p-12 * 0.999)), kRefinedBoundUlps);
}

// One term too few is visible: the test can fail.
TEST(InverseCubeRefined, OneTermFewerExceedsTheBound) {
  EXPECT_GT((worst_relative_error<double, 3>(0x1p-14 * 0.999)), kRefinedBoundUlps);
}

}  // namespace
}  // namespace orrery
