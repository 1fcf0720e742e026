// SPDX-License-Identifier: MIT
// A user's polynomial potential as an ensemble problem, on the CPU lanes: Hénon–Heiles written as
// text follows the built-in problem to rounding under every integrator; each compiled shape's
// field is −∇V by finite differences of its V; a 1-D and a 3-D oscillator follow their analytic
// solutions; and the shape chosen is the smallest that holds the potential.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"

namespace orrery {
namespace {

using test::SmallEnsemble;

// The polynomial's ∇V and the built-in's −a differ in rounding only (Horner's rule in x² against
// the built-in's fused forms, and 1/3 rounded once): ~1e-16 a step, grown by the chaotic orbit's
// Lyapunov exponent (~0.1 at E = 1/8) over t = 5 to well under these.
constexpr double kFollowsFp64 = 1e-12;
// fp32 differs by its own rounding (~6e-8 a step) grown the same way.
constexpr double kFollowsFp32 = 1e-4;

TEST(PolynomialEnsemble, HenonHeilesTextFollowsTheBuiltInUnderEveryIntegrator) {
  for (const auto& integrator : ensemble_integrator_names())
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      SmallEnsemble builtin;
      builtin.integrator = integrator;
      builtin.precision = p;
      builtin.steps = 500;
      builtin.samples = 5;
      builtin.rows = test::henon_heiles_rows(0.125, 40);
      SmallEnsemble text = builtin;
      text.potential = test::kHenonHeilesPotential;
      const EnsembleOutcome a = builtin.run(), b = text.run();
      const double tolerance = p == Precision::fp64 ? kFollowsFp64 : kFollowsFp32;
      ASSERT_EQ(a.final_state.size(), b.final_state.size());
      double largest = 0;
      for (std::size_t i = 0; i < a.final_state.size(); ++i)
        largest = std::max(largest, std::abs(a.final_state[i] - b.final_state[i]));
      EXPECT_LT(largest, tolerance) << integrator << " " << to_string(p);
      EXPECT_GT(std::abs(a.final_state[1] - builtin.rows[1]), 1e-3) << "the orbits moved";
      ASSERT_EQ(a.drift.size(), b.drift.size());
      for (std::size_t i = 0; i < a.drift.size(); ++i)
        EXPECT_NEAR(a.drift[i], b.drift[i], p == Precision::fp64 ? 1e-12 : 1e-5)
            << integrator << " " << to_string(p) << " sample " << i;
    }
}

TEST(PolynomialEnsemble, HenonHeilesRunsInTheShapeEvenInX) {
  SmallEnsemble e;
  e.potential = test::kHenonHeilesPotential;
  e.rows = test::henon_heiles_rows(0.125, 1);
  const auto& info = ensemble_problems()[static_cast<std::size_t>(e.setup().problem)];
  EXPECT_EQ(info.name, "polynomial");
  EXPECT_EQ(info.coordinates, 2);
  EXPECT_EQ(e.setup().problem,
            ensemble_problem_index("polynomial")) << "the even shape is listed first";
  SmallEnsemble odd = e;
  odd.potential = "0.5*(x^2+y^2) + x*y^2";  // odd in x: the dense shape
  EXPECT_NE(odd.setup().problem, e.setup().problem);
  EXPECT_EQ(ensemble_problems()[static_cast<std::size_t>(odd.setup().problem)].coordinates, 2);
}

// Central differences of V: error h²/6·V''' plus rounding ε·V/h; h = 1e-5 balances both near 1e-10
// for the coefficients below (all of order one at |q| < 1).
constexpr double kDifferenceStep = 1e-5;
constexpr double kDifferenceTolerance = 1e-8;

TEST(PolynomialEnsemble, EachShapesFieldIsMinusTheGradientOfItsPotential) {
  const char* potentials[] = {
      "0.5*x^2 - 0.25*x^4 + 0.1*x^6 + 0.3*x^3",                          // 1-D, degree 6
      "0.5*(x^2+y^2) + x^2*y - y^3/3",                                    // 2-D, even in x
      "0.5*(x^2+y^2) + x*y^2 - 0.2*x^5*y + 0.05*y^6",                    // 2-D, dense
      "0.5*(x^2+y^2+z^2) + 0.3*x*y*z - 0.1*x^3*z^2 + 0.02*z^6 + y^4*x",  // 3-D
  };
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> u(-0.8, 0.8);
  for (const char* text : potentials) {
    const PolynomialProblemChoice c =
        choose_polynomial_problem(parse_ensemble_potential(text, "potential"));
    visit_ensemble_problem(c.problem, [&]<class Problem>() {
      if constexpr (requires { Problem::needs_data; }) {
        constexpr int D = Problem::coordinates;
        const auto& data = *static_cast<const typename Problem::Data*>(c.data.get());
        ParameterPack<double, 0> none{};
        const auto field = Problem::template field<double>(data, none);
        for (int trial = 0; trial < 20; ++trial) {
          double q[D], a[D];
          for (double& x : q) x = u(random);
          field(q, a);
          for (int i = 0; i < D; ++i) {
            double up[D], down[D];
            for (int j = 0; j < D; ++j) up[j] = down[j] = q[j];
            up[i] += kDifferenceStep;
            down[i] -= kDifferenceStep;
            const double slope =
                (Problem::potential(data, nullptr, up) - Problem::potential(data, nullptr, down)) /
                (2 * kDifferenceStep);
            EXPECT_NEAR(a[i], -slope, kDifferenceTolerance) << text << " coordinate " << i;
          }
        }
      } else {
        ADD_FAILURE() << text << ": not a polynomial problem";
      }
    });
  }
}

// RK4's global error ~ t·dt⁴·ω⁵/120 with ω ≤ 3, t = 5, dt = 1e-3: below 1e-11.
constexpr double kOscillatorTolerance = 1e-9;

TEST(PolynomialEnsemble, OneDimensionalOscillatorFollowsCosine) {
  SmallEnsemble e;
  e.potential = "0.5*x^2";
  e.integrator = "rk4";
  e.dt = 1e-3;
  e.steps = 5000;
  e.rows = {1.0, 0.0, 0.5, 0.2};  // (x, px) of two trajectories
  const EnsembleOutcome out = e.run();
  ASSERT_EQ(out.state_words, 2);
  const double t = 5.0;
  EXPECT_NEAR(out.final_state[0], std::cos(t), kOscillatorTolerance);
  EXPECT_NEAR(out.final_state[1], -std::sin(t), kOscillatorTolerance);
  EXPECT_NEAR(out.final_state[2], 0.5 * std::cos(t) + 0.2 * std::sin(t), kOscillatorTolerance);
  EXPECT_NEAR(out.final_state[3], -0.5 * std::sin(t) + 0.2 * std::cos(t), kOscillatorTolerance);
}

TEST(PolynomialEnsemble, ThreeDimensionalOscillatorFollowsItsThreeFrequencies) {
  SmallEnsemble e;
  e.potential = "0.5*x^2 + 2*y^2 + 4.5*z^2";  // ω = 1, 2, 3
  e.integrator = "rk4";
  e.dt = 1e-3;
  e.steps = 5000;
  e.rows = {1.0, 1.0, 1.0, 0.0, 0.0, 0.0};
  const EnsembleOutcome out = e.run();
  ASSERT_EQ(out.state_words, 6);
  for (int i = 0; i < 3; ++i) {
    const double w = i + 1.0, t = 5.0;
    EXPECT_NEAR(out.final_state[i], std::cos(w * t), kOscillatorTolerance) << i;
    EXPECT_NEAR(out.final_state[3 + i], -w * std::sin(w * t), kOscillatorTolerance) << i;
  }
}

// Leapfrog's energy error is O(dt²) and bounded: ~dt²·|V''|·E/8 ≈ 1e-5 here, far below 1e-3; the
// coupled cubic makes the motion non-separable, so the bound tests the whole field.
constexpr double kLeapfrogEnergyBound = 1e-3;

TEST(PolynomialEnsemble, ThreeDimensionalCoupledEnergyStaysBoundedUnderLeapfrog) {
  SmallEnsemble e;
  e.potential = "0.5*(x^2+y^2+z^2) + 0.2*x*y*z - 0.05*z^4";
  e.integrator = "leapfrog";
  e.dt = 0.01;
  e.steps = 100000;
  e.samples = 10;
  e.rows = {0.3, -0.2, 0.4, 0.1, 0.2, -0.1, -0.5, 0.1, 0.2, 0.0, 0.3, 0.1};
  const EnsembleOutcome out = e.run();
  ASSERT_EQ(out.drift.size(), 20u);
  for (float d : out.drift) EXPECT_LT(std::abs(d), kLeapfrogEnergyBound);
  EXPECT_GT(std::abs(out.drift.back()), 0.0f) << "the energy error is measured";
}

TEST(PolynomialEnsemble, RefusesWithoutItsPotential) {
  SmallEnsemble e;
  e.rows = test::henon_heiles_rows(0.125, 2);
  EnsembleSetup s = e.setup();
  s.problem = ensemble_problem_index("polynomial");
  try {
    run_ensemble(s);
    ADD_FAILURE() << "ran without a potential";
  } catch (const ParameterError& err) {
    EXPECT_EQ(err.parameter(), "data") << err.what();
  }
}

}  // namespace
}  // namespace orrery
