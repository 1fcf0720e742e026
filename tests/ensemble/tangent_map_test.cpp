// SPDX-License-Identifier: MIT
// The tangent map of the integrator's own step by dual numbers (ensemble/chaos/tangent_system.hpp)
// for every problem: the values keep the plain run's bits; a tangent vector equals the central
// finite difference (Φ(y + εw) − Φ(y − εw))/(2ε) to its truncation error, whose measured order
// is 2; a symplectic method's tangent map M keeps the symplectic form, MᵀJM = J, to rounding,
// where a Runge–Kutta method's does not.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "orrery/ensemble/chaos/tangent_system.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/problems/polynomial/polynomial_choice.hpp"

namespace orrery {
namespace {

// The central difference's error is (ε²/6)·Φ''' plus rounding u·|Φ|/ε; for ε from 1e-3 halved
// twice the first term is ~1e-7 and the second ~1e-12: the ratio of successive errors is 4
// (order 2) to within this.
constexpr double kOrderSlack = 0.2;
// MᵀΩM − Ω of a symplectic step: each entry a sum of D products, rounded at every operation of
// a few hundred steps, relative to ‖M‖² (measured: 2e-15 for Hénon–Heiles, 3e-13 for the three
// bodies, whose M has entries of very different sizes).
constexpr double kSymplecticRounding = 1e-12;
// A fourth-order Runge–Kutta method's MᵀΩM − Ω on Hénon–Heiles at h = 0.1 (its local error
// h⁵ per step, not rounding; measured 5e-7): the test's power to fail.
constexpr double kRungeKuttaDefect = 1e-9;

template <class Problem>
struct TangentRun {
  const typename Problem::Data* data;
  std::array<double, EnsembleSystem<Problem, double>::D> y0;
  std::array<double, Problem::parameters> k;
  double dt;
  std::int64_t steps;

  // Φ^steps(y0 + s·w) by the plain register run.
  template <class Table>
  std::array<double, EnsembleSystem<Problem, double>::D> plain(
      const std::array<double, EnsembleSystem<Problem, double>::D>& w, double s) const {
    using S = EnsembleSystem<Problem, double>;
    typename S::State st;
    for (int i = 0; i < S::D; ++i) S::word(st, i) = y0[i] + s * w[i];
    typename S::Parameters pk;
    for (int i = 0; i < S::P; ++i) pk.value[i] = k[i];
    const auto field = Problem::template field<double>(*data, pk);
    typename S::template Integrator<Table>::Memory memory{};
    S::template Integrator<Table>::start(st, memory, field);
    S::template Integrator<Table>::run(st, memory, dt, steps, field);
    std::array<double, S::D> out;
    for (int i = 0; i < S::D; ++i) out[i] = S::word(st, i);
    return out;
  }

  // The same run on dual numbers with K deviation vectors (columns of m), one interval.
  template <class Table, int K>
  typename TangentSystem<Problem, double, K>::State dual(
      const typename TangentSystem<Problem, double, K>::Vectors& m) const {
    using TS = TangentSystem<Problem, double, K>;
    typename TS::State st;
    for (int i = 0; i < TS::D; ++i) TS::Base::word(st, i) = Dual<double, K>(y0[i]);
    TS::set_vectors(st, m);
    double kk[TS::P > 0 ? TS::P : 1] = {};
    for (int i = 0; i < TS::P; ++i) kk[i] = k[i];
    integrate_tangent<Problem, Table, double, K>(st, TS::field(*data, kk), dt, steps, 1,
                                                 [](std::int64_t, auto&) {});
    return st;
  }
};

// The plain run's bits, and a tangent vector against central differences of measured order 2.
template <class Problem, class Table>
void expect_tangent_is_the_steps_derivative(const TangentRun<Problem>& run, const std::string& what) {
  using TS = TangentSystem<Problem, double, 1>;
  constexpr int D = TS::D;
  std::array<double, D> w{};
  typename TS::Vectors m;
  for (int i = 0; i < D; ++i) w[i] = m.w[i][0] = std::cos(1.0 + 0.7 * i);  // a generic direction
  const auto st = run.template dual<Table, 1>(m);
  const auto zero = run.template plain<Table>(w, 0.0);
  for (int i = 0; i < D; ++i)
    ASSERT_EQ(TS::value(st, i), zero[i]) << what << ": word " << i << " left the plain bits";
  double error[3];
  for (int j = 0; j < 3; ++j) {
    const double eps = 1e-3 / (1 << j);
    const auto up = run.template plain<Table>(w, eps), down = run.template plain<Table>(w, -eps);
    error[j] = 0;
    for (int i = 0; i < D; ++i) {
      const double fd = (up[i] - down[i]) / (2 * eps);
      error[j] = std::max(error[j], std::abs(fd - TS::Base::word(st, i).d[0]));
    }
  }
  const double order1 = std::log2(error[0] / error[1]), order2 = std::log2(error[1] / error[2]);
  EXPECT_NEAR(order1, 2.0, kOrderSlack) << what << " errors " << error[0] << " " << error[1];
  EXPECT_NEAR(order2, 2.0, kOrderSlack) << what << " errors " << error[1] << " " << error[2];
}

// The largest |MᵀΩM − Ω| over ‖M‖², M the run's tangent map (every direction at once) and Ω the
// symplectic form of the coordinates (x, v): Ω = Σ_c μ_c dx_c ∧ dv_c, μ_c the mass of
// coordinate c (1 for a Hamiltonian |p|²/2 + V; G·m for the three bodies, a constant multiple).
template <class Problem, class Table>
double symplectic_defect(const TangentRun<Problem>& run, const double* mu) {
  constexpr int D = EnsembleSystem<Problem, double>::D, C = D / 2;
  using TS = TangentSystem<Problem, double, D>;
  typename TS::Vectors id{};
  for (int i = 0; i < D; ++i) id.w[i][i] = 1;
  const auto st = run.template dual<Table, D>(id);
  typename TS::Vectors m;
  TS::get_vectors(st, m);
  double largest = 0, norm = 0;
  for (int a = 0; a < D; ++a)
    for (int b = 0; b < D; ++b) {
      double form = 0;
      for (int c = 0; c < C; ++c)
        form += mu[c] * (m.w[c][a] * m.w[C + c][b] - m.w[C + c][a] * m.w[c][b]);
      const double j = b == a + C ? mu[a] : a == b + C ? -mu[b] : 0.0;
      largest = std::max(largest, std::abs(form - j));
      norm = std::max(norm, std::abs(m.w[a][b]));
    }
  return largest / (norm * norm);
}

const HenonHeilesProblem::Data kNoData{};
const ThreeBodyProblem::Data kNoThreeBodyData{};
const LorenzProblem::Data kNoLorenzData{};

TangentRun<HenonHeilesProblem> henon_heiles_run() {
  return {&kNoData, {0.0, -0.25, 0.42081, 0.0}, {}, 0.01, 300};
}

TangentRun<ThreeBodyProblem> three_body_run() {
  TangentRun<ThreeBodyProblem> r{&kNoThreeBodyData, {}, {}, 1e-3, 200};
  for (int i = 0; i < 18; ++i) r.y0[i] = ThreeBodyProblem::state_defaults[i];
  for (int i = 0; i < 3; ++i) r.k[i] = ThreeBodyProblem::parameter_defaults[i];
  return r;
}

TEST(TangentMap, HenonHeilesMatchesFiniteDifferencesUnderEachFamily) {
  const auto run = henon_heiles_run();
  expect_tangent_is_the_steps_derivative<HenonHeilesProblem, Yoshida4>(run, "yoshida4");
  expect_tangent_is_the_steps_derivative<HenonHeilesProblem, LeapfrogKDK>(run, "leapfrog");
  expect_tangent_is_the_steps_derivative<HenonHeilesProblem, ClassicRK4>(run, "rk4");
  expect_tangent_is_the_steps_derivative<HenonHeilesProblem, DormandPrince853>(run, "dop853");
}

TEST(TangentMap, ThreeBodyMatchesFiniteDifferences) {
  const auto run = three_body_run();
  expect_tangent_is_the_steps_derivative<ThreeBodyProblem, Yoshida4>(run, "yoshida4");
  expect_tangent_is_the_steps_derivative<ThreeBodyProblem, ClassicRK4>(run, "rk4");
}

TEST(TangentMap, LorenzMatchesFiniteDifferences) {
  TangentRun<LorenzProblem> run{&kNoLorenzData, {1.0, 0.0, 0.0}, {10.0, 28.0, 8.0 / 3.0}, 0.005, 400};
  expect_tangent_is_the_steps_derivative<LorenzProblem, ClassicRK4>(run, "rk4");
  expect_tangent_is_the_steps_derivative<LorenzProblem, Tsitouras5>(run, "tsit5");
}

TEST(TangentMap, PolynomialMatchesFiniteDifferences) {
  const PolynomialProblemChoice choice =
      choose_polynomial_problem(parse_ensemble_potential("0.5*(x^2+y^2) + 0.7*x^2*y - 0.2*y^3",
                                                         "potential"));
  using Problem = EnsembleProblems::at<2>;  // 2-D, degree 3, even in x
  ASSERT_EQ(choice.problem, 2);
  const auto* data = static_cast<const Problem::Data*>(choice.data.get());
  TangentRun<Problem> run{data, {0.1, -0.2, 0.35, 0.05}, {}, 0.01, 300};
  expect_tangent_is_the_steps_derivative<Problem, Yoshida4>(run, "yoshida4");
  expect_tangent_is_the_steps_derivative<Problem, ClassicRK4>(run, "rk4");
}

TEST(TangentMap, SymplecticMethodKeepsTheSymplecticForm) {
  // Steps large enough that a Runge–Kutta method's defect stands above rounding.
  auto hh = henon_heiles_run();
  hh.dt = 0.1;
  const double unit[2] = {1.0, 1.0};
  const double yoshida = symplectic_defect<HenonHeilesProblem, Yoshida4>(hh, unit);
  const double leapfrog = symplectic_defect<HenonHeilesProblem, LeapfrogKDK>(hh, unit);
  const double rk4 = symplectic_defect<HenonHeilesProblem, ClassicRK4>(hh, unit);
  EXPECT_LT(yoshida, kSymplecticRounding);
  EXPECT_LT(leapfrog, kSymplecticRounding);
  EXPECT_GT(rk4, kRungeKuttaDefect) << "rk4 is not symplectic: the check must see its defect";
  auto tb = three_body_run();
  tb.dt = 4e-3;
  double gm[9];
  for (int c = 0; c < 9; ++c) gm[c] = tb.k[c / 3];
  const double yoshida3 = symplectic_defect<ThreeBodyProblem, Yoshida4>(tb, gm);
  EXPECT_LT(yoshida3, kSymplecticRounding);
}

}  // namespace
}  // namespace orrery
