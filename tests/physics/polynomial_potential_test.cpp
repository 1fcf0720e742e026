// SPDX-License-Identifier: MIT
// The polynomial potential (physics/polynomial.hpp, physics/polynomial_terms.hpp) against what
// it must equal: the Hénon–Heiles formulas written out here, finite differences of V taken in
// binary128, the binary128 value of the canonical form, and the same shape on other lane types.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <type_traits>

#include "orrery/core/float128.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/physics/polynomial.hpp"
#include "orrery/physics/polynomial_dispatch.hpp"
#include "orrery/physics/polynomial_text.hpp"

namespace orrery {
namespace {

constexpr int kPoints = 2000;

// A few roundings of terms of size ≤ 4 at points in [−1, 1]^D (Horner and the written formula
// round in different places).
constexpr double kHenonHeilesTolerance = 1e-14;

constexpr const char* kHenonHeiles = "0.5*(x^2+y^2) + x^2*y - y^3/3";

// H = (px² + py²)/2 + (x² + y²)/2 + x²y − y³/3 (Hénon & Heiles, AJ 69, 73 (1964)).
double hh_potential(double x, double y) { return 0.5 * (x * x + y * y) + x * x * y - y * y * y / 3; }
double hh_dx(double x, double y) { return x + 2 * x * y; }
double hh_dy(double x, double y) { return y + x * x - y * y; }

template <class Pot>
void expect_henon_heiles(const Pot& pot) {
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 0; n < kPoints; ++n) {
    const double q[2] = {u(rng), u(rng)};
    double g[2], h[2][2];
    gradient(pot, q, g);
    hessian(pot, q, h);
    EXPECT_NEAR(potential(pot, q), hh_potential(q[0], q[1]), kHenonHeilesTolerance);
    EXPECT_NEAR(g[0], hh_dx(q[0], q[1]), kHenonHeilesTolerance);
    EXPECT_NEAR(g[1], hh_dy(q[0], q[1]), kHenonHeilesTolerance);
    EXPECT_NEAR(h[0][0], 1 + 2 * q[1], kHenonHeilesTolerance);
    EXPECT_NEAR(h[0][1], 2 * q[0], kHenonHeilesTolerance);
    EXPECT_NEAR(h[1][0], 2 * q[0], kHenonHeilesTolerance);
    EXPECT_NEAR(h[1][1], 1 - 2 * q[1], kHenonHeilesTolerance);
  }
}

TEST(PolynomialPotential, HenonHeilesTextIsTheBuiltInFormulas) {
  const PolynomialTerms v = parse_potential(kHenonHeiles, 2);
  EXPECT_EQ(v.shape().degree, 3);
  EXPECT_EQ(v.shape().parity, parity_word(VariableParity::even));
  expect_henon_heiles(pack_potential<double, 2, 3, 0>(v));
  expect_henon_heiles(pack_potential<double, 2, 3, parity_word(VariableParity::even)>(v));
  // A shape larger than needed holds the same potential.
  expect_henon_heiles(pack_potential<double, 2, 6, 0>(v));
}

TEST(PolynomialPotential, ShapesWithoutMonomialsEvaluateToZero) {
  // Even in x and of degree 2: ∂²V/∂x∂y is odd in x and of degree 0, a shape with no monomial.
  const auto pot = pack_potential<double, 2, 2, parity_word(VariableParity::even)>(
      parse_potential("x^2 + 3*y^2 + y", 2));
  static_assert(std::decay_t<decltype(get<1>(pot.hessian))>::size == 0);
  const double q[2] = {0.25, -0.5};
  double g[2], h[2][2];
  gradient(pot, q, g);
  hessian(pot, q, h);
  EXPECT_EQ(g[0], 0.5);
  EXPECT_EQ(g[1], -2.0);
  EXPECT_EQ(h[0][0], 2.0);
  EXPECT_EQ(h[0][1], 0.0);
  EXPECT_EQ(h[1][1], 6.0);
}

TEST(PolynomialPotential, TheShapeCanBeAKernelArgument) {
  using Pot = PolynomialPotential<double, 3, 6, parity_word(VariableParity::even)>;
  static_assert(std::is_trivially_copyable_v<Pot> && std::is_standard_layout_v<Pot>);
  // The fp64 shape of the highest degree in three coordinates stays below the 4 KiB that
  // kernel arguments had before CUDA 12.1, beside a few pointers.
  static_assert(sizeof(PolynomialPotential<double, 3, 6, 0>) <= 3800);
}

// A random polynomial in D coordinates of degree ≤ N with small integer and fractional
// coefficients, written as text so the parser is on the path; `even` makes the powers of the
// coordinates in its mask even.
std::string random_polynomial(std::mt19937_64& rng, int d, int n, unsigned even) {
  std::uniform_int_distribution<int> coefficient(-9, 9), power(0, n);
  std::string text;
  for (int k = 0; k < 12; ++k) {
    int p[3] = {0, 0, 0}, left = n;
    for (int i = 0; i < d; ++i) {
      p[i] = std::min(power(rng), left);
      if (even >> i & 1) p[i] -= p[i] % 2;
      left -= p[i];
    }
    text += (k ? " + " : "") + std::to_string(coefficient(rng)) + "/7";
    for (int i = 0; i < d; ++i) text += "*" + std::string(1, "xyz"[i]) + "^" + std::to_string(p[i]);
  }
  return text;
}

// Central differences in binary128 with step h: truncation h²·|f'''|/6, rounding 1e−34/h, both
// far below the tolerance.
constexpr double kDifferenceStep = 1e-9;
// Differences against the rounded coefficients evaluated by Horner in double: terms ≤ 9/7·6 at
// |q| ≤ 1, a few dozen of them, each rounded a few times.
constexpr double kDerivativeTolerance = 1e-12;

template <int D>
std::array<float128, 3> as_point(const double (&q)[D]) {
  std::array<float128, 3> p{};
  for (int i = 0; i < D; ++i) p[i] = q[i];
  return p;
}

template <int D, int N, unsigned Parity>
void expect_derivatives_match_differences(const PolynomialTerms& v) {
  const auto pot = pack_potential<double, D, N, Parity>(v);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const float128 h = kDifferenceStep;
  for (int n = 0; n < 200; ++n) {
    double q[D];
    for (auto& x : q) x = u(rng);
    double g[D], hs[D][D];
    gradient(pot, q, g);
    hessian(pot, q, hs);
    EXPECT_NEAR(potential(pot, q), static_cast<double>(v.value(as_point(q))),
                kDerivativeTolerance);
    for (int i = 0; i < D; ++i) {
      auto plus = as_point(q), minus = as_point(q);
      plus[i] += h;
      minus[i] -= h;
      const double difference = static_cast<double>((v.value(plus) - v.value(minus)) / (2 * h));
      EXPECT_NEAR(g[i], difference, kDerivativeTolerance) << v.text() << " i=" << i;
      const PolynomialTerms di = v.derivative(i);
      for (int j = 0; j < D; ++j) {
        auto pj = as_point(q), mj = as_point(q);
        pj[j] += h;
        mj[j] -= h;
        const double second = static_cast<double>((di.value(pj) - di.value(mj)) / (2 * h));
        EXPECT_NEAR(hs[i][j], second, kDerivativeTolerance) << v.text() << " " << i << j;
      }
    }
  }
}

TEST(PolynomialPotential, DerivativesOfRandomPolynomialsMatchFiniteDifferences) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const PolynomialTerms v3 = parse_potential(random_polynomial(rng, 3, 6, 0), 3);
    expect_derivatives_match_differences<3, 6, 0>(v3);
    const PolynomialTerms v2 = parse_potential(random_polynomial(rng, 2, 4, 0), 2);
    expect_derivatives_match_differences<2, 4, 0>(v2);
    const PolynomialTerms v1 = parse_potential(random_polynomial(rng, 1, 5, 0), 1);
    expect_derivatives_match_differences<1, 5, 0>(v1);
  }
}

TEST(PolynomialPotential, EvenShapesHoldEvenPolynomials) {
  std::mt19937_64 rng(4);
  constexpr unsigned kEvenXZ = parity_word(VariableParity::even, VariableParity::any,
                                           VariableParity::even);
  for (int trial = 0; trial < 20; ++trial) {
    const PolynomialTerms v = parse_potential(random_polynomial(rng, 3, 6, 0b101), 3);
    ASSERT_TRUE(v.even_in(0) && v.even_in(2)) << v.text();
    expect_derivatives_match_differences<3, 6, kEvenXZ>(v);
  }
}

struct ChosenShape {
  int degree = 0;
  unsigned parity = 99;
};

template <int D>
ChosenShape chosen(const char* text) {
  constexpr unsigned kEvenX = parity_word(VariableParity::even);
  constexpr unsigned kEvenXY = parity_word(VariableParity::even, VariableParity::even);
  return visit_potential<double, D>(parse_potential(text, D), PotentialDegrees<3, 4, 6>{},
                                    PotentialParities<0, kEvenX, kEvenXY>{},
                                    [](const auto& packed) {
                                      using P = std::decay_t<decltype(packed)>;
                                      return ChosenShape{P::degree, P::parity};
                                    });
}

TEST(PolynomialPotential, TheDispatchChoosesTheSmallestShapeThatHolds) {
  EXPECT_EQ(chosen<2>(kHenonHeiles).degree, 3);
  EXPECT_EQ(chosen<2>(kHenonHeiles).parity, parity_word(VariableParity::even));
  EXPECT_EQ(chosen<2>("x^2*y^2 + x^4").parity,
            parity_word(VariableParity::even, VariableParity::even));
  EXPECT_EQ(chosen<2>("x^2*y^2 + x^4").degree, 4);
  EXPECT_EQ(chosen<2>("x*y").parity, 0u);
  EXPECT_EQ(chosen<2>("x*y").degree, 3);
  EXPECT_EQ(chosen<2>("x^5").degree, 6);
  // A parity word naming a coordinate the problem lacks does not hold.
  EXPECT_EQ(chosen<1>("x^2").parity, parity_word(VariableParity::even));
  // The HH potential packed by the dispatch gives the built-in formulas.
  visit_potential<double, 2>(parse_potential(kHenonHeiles, 2), PotentialDegrees<3>{},
                             PotentialParities<0, parity_word(VariableParity::even)>{},
                             [](const auto& packed) { expect_henon_heiles(packed); });
  const auto too_high = [] {
    visit_potential<double, 1>(parse_potential("x^5", 1), PotentialDegrees<3, 4>{},
                               PotentialParities<0>{}, [](const auto&) {});
  };
  EXPECT_THROW(too_high(), ParameterError);
}

TEST(PolynomialPotential, ShapesTooSmallAreRefused) {
  const PolynomialTerms v = parse_potential("x*y^2", 2);
  EXPECT_THROW((pack_potential<double, 2, 2, 0>(v)), std::logic_error);
  EXPECT_THROW((pack_potential<double, 2, 3, parity_word(VariableParity::even)>(v)),
               std::logic_error);
  EXPECT_THROW((pack_potential<double, 3, 3, 0>(v)), std::logic_error);
}

TEST(PolynomialPotential, CoefficientsBeyondFloatAreRefusedForFloat) {
  const PolynomialTerms v = parse_potential("1e300*x^2", 1);
  EXPECT_NO_THROW((pack_potential<double, 1, 2, 0>(v)));
  EXPECT_THROW((pack_potential<float, 1, 2, 0>(v)), ParameterError);
}

// fp32 rounds each coefficient and each operation at 2^−24: a few dozen roundings of terms of
// size ≤ 9/7·6.
constexpr double kFloatTolerance = 1e-4;

TEST(PolynomialPotential, FloatAndDoubleLanesAgreeWithinRounding) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    const PolynomialTerms v = parse_potential(random_polynomial(rng, 3, 5, 0), 3);
    const auto pd = pack_potential<double, 3, 5, 0>(v);
    const auto pf = pack_potential<float, 3, 5, 0>(v);
    for (int n = 0; n < 200; ++n) {
      const float qf[3] = {u(rng), u(rng), u(rng)};
      const double qd[3] = {qf[0], qf[1], qf[2]};
      float gf[3];
      double gd[3];
      gradient(pf, qf, gf);
      gradient(pd, qd, gd);
      EXPECT_NEAR(potential(pf, qf), potential(pd, qd), kFloatTolerance);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(gf[i], gd[i], kFloatTolerance);
    }
  }
}

TEST(PolynomialPotential, SimdLanesGiveTheScalarBits) {
  using V = stdx::native_simd<double>;
  const auto pot = pack_potential<double, 2, 3, parity_word(VariableParity::even)>(
      parse_potential(kHenonHeiles, 2));
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 0; n < 100; ++n) {
    V q[2];
    double scalar[V::size()][2];
    for (std::size_t k = 0; k < V::size(); ++k) {
      scalar[k][0] = u(rng);
      scalar[k][1] = u(rng);
      q[0][k] = scalar[k][0];
      q[1][k] = scalar[k][1];
    }
    V g[2];
    gradient(pot, q, g);
    for (std::size_t k = 0; k < V::size(); ++k) {
      double gs[2];
      gradient(pot, scalar[k], gs);
      EXPECT_EQ(g[0][k], gs[0]);
      EXPECT_EQ(g[1][k], gs[1]);
    }
  }
}

}  // namespace
}  // namespace orrery
