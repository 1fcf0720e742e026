// SPDX-License-Identifier: MIT
// `three-body` as an ensemble problem, against what the tests compute for themselves: the field
// is minus the gradient of the potential (finite differences); the figure-eight choreography
// (tests/ensemble/ensemble_setups.hpp) closes after its period, its bodies a third of a period
// apart, and every method reaches a high-accuracy reference integration at its order; energy
// errors stay bounded for symplectic methods and grow for RK4; the CPU lanes give the bits of
// the same agent run on one scalar (the map's pixels as starts: three_body_map_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ensemble_setups.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {
namespace {

using test::FigureEight;
using test::SmallEnsemble;
using Problem = ThreeBodyProblem;
constexpr int kWords = 2 * Problem::coordinates;  // 18 state words
constexpr int kRowWords = kWords + Problem::parameters;

SmallEnsemble three_body(const std::string& integrator, double t, std::int64_t steps,
                         std::vector<double> rows = test::figure_eight_row()) {
  SmallEnsemble e;
  e.problem = "three-body";
  e.integrator = integrator;
  e.dt = t / static_cast<double>(steps);
  e.steps = steps;
  e.rows = std::move(rows);
  return e;
}

std::vector<double> final_state(const SmallEnsemble& e) {
  const EnsembleOutcome out = e.run();
  return {out.final_state.begin(), out.final_state.end()};
}

// The largest difference of two states' words.
double gap(const std::vector<double>& a, const std::vector<double>& b, std::size_t words = kWords) {
  double d = 0;
  for (std::size_t w = 0; w < words; ++w) d = std::max(d, std::abs(a[w] - b[w]));
  return d;
}

TEST(ThreeBodyEnsemble, FieldIsMinusTheGradientOfThePotentialOverEachMass) {
  // potential() is G·V = −Σ Gm_i Gm_j / r_ij, so a_i = −∂(G·V)/∂x_i / (G m_i). Central
  // differences of step h: truncation h²·|V'''|/6 ~ 10⁻¹¹ here, rounding ε·|V|/h ~ 10⁻¹¹.
  constexpr double kStep = 1e-5, kFiniteDifference = 1e-8;  // relative to the largest |a|
  const double k[3] = {1.3, 0.7, 2.1};
  const double q[9] = {0.4, -1.1, 0.3, 1.7, 0.2, -0.5, -0.9, 0.8, 0.6};
  ParameterPack<double, 3> params{{k[0], k[1], k[2]}};
  double a[9];
  Problem::field<double>(Problem::Data{}, params)(q, a);
  double largest = 0;
  for (double v : a) largest = std::max(largest, std::abs(v));
  for (int c = 0; c < 9; ++c) {
    double up[9], down[9];
    std::copy(q, q + 9, up);
    std::copy(q, q + 9, down);
    up[c] += kStep;
    down[c] -= kStep;
    const double slope =
        (Problem::potential({}, k, up) - Problem::potential({}, k, down)) / (2 * kStep);
    EXPECT_NEAR(a[c], -slope / k[c / 3], kFiniteDifference * largest) << "coordinate " << c;
  }
  // Newton's third law: the momentum's rate Σ m_i a_i vanishes to rounding.
  for (int axis = 0; axis < 3; ++axis)
    EXPECT_NEAR(k[0] * a[axis] + k[1] * a[3 + axis] + k[2] * a[6 + axis], 0.0, 1e-14 * largest);
}

TEST(ThreeBodyEnsemble, DefaultsAreTheDivergenceMapsSystem) {
  const DivergenceSetup s = make_divergence_setup(DivergenceMapParams{});
  const auto& info = ensemble_problems()[static_cast<std::size_t>(ensemble_problem_index("three-body"))];
  ASSERT_EQ(info.state_words, kWords);
  ASSERT_EQ(info.parameters, 3);
  for (int n = 0; n < kMapBodies; ++n) {
    EXPECT_EQ(info.parameter_defaults[n], s.gm[n]) << "gm" << n + 1;
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_EQ(info.state_defaults[3 * n + axis], component(s.x0[n], axis));
      EXPECT_EQ(info.state_defaults[9 + 3 * n + axis], component(s.v0[n], axis));
    }
  }
  EXPECT_EQ(info.state_names[0], "x1");
  EXPECT_EQ(info.state_names[9], "vx1");
  EXPECT_EQ(info.parameter_names[0], "gm1");
  EXPECT_FALSE(info.energy_starts);
}

// The reference: dop853 at T/4000 (two such runs at T/4000 and T/8000 agree to ~10⁻¹³).
std::vector<double> figure_eight_reference(double t = FigureEight::period) {
  return final_state(three_body("dop853", t, 4000));
}

TEST(ThreeBodyEnsemble, FigureEightClosesAfterItsPeriodWithItsBodiesAThirdApart) {
  // Simó's initial conditions have 8 digits: the orbit from them closes to ~4·10⁻⁸.
  constexpr double kEightDigits = 1e-6;
  const std::vector<double> start = test::figure_eight_row();
  EXPECT_LT(gap(figure_eight_reference(), start), kEightDigits);
  // A choreography: each body runs the others' curve a third of a period later, so at T/3
  // body 1 is where body 3 started, body 2 where body 1 started, body 3 where body 2 started.
  const std::vector<double> third = figure_eight_reference(FigureEight::period / 3);
  const int from[3] = {2, 0, 1};
  for (int b = 0; b < 3; ++b)
    for (int w : {3 * b, 3 * b + 1, 9 + 3 * b, 9 + 3 * b + 1})
      EXPECT_NEAR(third[w], start[w - 3 * b + 3 * from[b]], kEightDigits) << "word " << w;
}

// A distance from the reference this large is the method's, not rounding's.
constexpr double kAboveRounding = 1e-12;

TEST(ThreeBodyEnsemble, MethodsReachTheReferenceAtTheirOrderOnTheFigureEight) {
  const std::vector<double> reference = figure_eight_reference();
  // Halving the step divides the error by 2^p; within [0.8, 1.25]·2^p at these steps.
  const struct {
    const char* name;
    int order;
    std::int64_t steps;
  } cases[] = {{"euler", 1, 20000},   {"midpoint", 2, 1600}, {"rk4", 4, 800},
               {"dopri5", 5, 400},    {"tsit5", 5, 200},     {"symplectic-euler", 1, 4000},
               {"leapfrog", 2, 400},  {"yoshida4", 4, 100},  {"yoshida6", 6, 100},
               {"yoshida8", 8, 160}};
  for (const auto& c : cases) {
    const double coarse = gap(final_state(three_body(c.name, FigureEight::period, c.steps)), reference);
    const double fine =
        gap(final_state(three_body(c.name, FigureEight::period, 2 * c.steps)), reference);
    const double ratio = coarse / fine, nominal = std::pow(2.0, c.order);
    EXPECT_GT(ratio, 0.8 * nominal) << c.name << ": errors " << coarse << ", " << fine;
    EXPECT_LT(ratio, 1.25 * nominal) << c.name << ": errors " << coarse << ", " << fine;
    EXPECT_GT(fine, kAboveRounding) << c.name << ": the case must stay above rounding";
  }
}

TEST(ThreeBodyEnsemble, ControlledStepsReachTheReferenceWithinTheirTolerance) {
  // Local errors of 10⁻¹⁰ per step over a few hundred steps of a stable orbit.
  constexpr double kTolerance = 1e-10, kGrowth = 1e3;
  const std::vector<double> reference = figure_eight_reference();
  for (const char* name : {"dopri5", "tsit5", "dop853"}) {
    SmallEnsemble e = three_body(name, FigureEight::period, 100);
    e.tolerance = kTolerance;
    const EnsembleOutcome out = e.run();
    ASSERT_EQ(out.failed, 0) << name;
    EXPECT_LT(gap({out.final_state.begin(), out.final_state.end()}, reference),
              kGrowth * kTolerance)
        << name;
  }
}

TEST(ThreeBodyEnsemble, SymplecticEnergyErrorStaysBoundedWhileRk4Grows) {
  // The figure eight over 100 and 1000 periods; the largest |ΔE/E| of each. 50 steps a period
  // for the symplectic methods, 100 for RK4 (at 50 its error is no longer small and grows
  // faster than linearly).
  constexpr double T = FigureEight::period;
  for (const char* name : {"leapfrog", "yoshida4"}) {
    SmallEnsemble e = three_body(name, 100 * T, 100 * 50);
    e.samples = 100;
    const double short_run = test::largest_drift(e);
    e = three_body(name, 1000 * T, 1000 * 50);
    e.samples = 100;
    const double long_run = test::largest_drift(e);
    EXPECT_LT(long_run, 2.0 * short_run) << name << ": " << short_run << " -> " << long_run;
    EXPECT_GT(short_run, 0) << name;
  }
  SmallEnsemble e = three_body("rk4", 100 * T, 100 * 100);
  e.samples = 100;
  const double short_run = test::largest_drift(e);
  e = three_body("rk4", 1000 * T, 1000 * 100);
  e.samples = 100;
  const double long_run = test::largest_drift(e);
  // RK4 loses energy steadily: about ten times as much in ten times the time.
  EXPECT_GT(long_run / short_run, 6.0) << short_run << " -> " << long_run;
  EXPECT_LT(long_run / short_run, 15.0) << short_run << " -> " << long_run;
}

// The ensemble's agent on one scalar trajectory (R float or double; Mixed: the fp32 field),
// `samples` drift values appended to `drift`.
template <class Table, class R, bool Mixed>
std::vector<double> scalar_run(const double* row, double dt, std::int64_t steps, int samples,
                               std::vector<float>& drift) {
  using System = EnsembleSystem<Problem, R>;
  typename System::State st;
  ParameterPack<R, 3> k;
  for (int w = 0; w < kWords; ++w) System::word(st, w) = static_cast<R>(row[w]);
  for (int w = 0; w < 3; ++w) k.value[w] = static_cast<R>(row[kWords + w]);
  const double e0 = Problem::energy({}, row + kWords, row);
  const auto field = ensemble_field<Problem, R, Mixed>(Problem::Data{}, k);
  integrate_trajectory<Problem, Table, R>(
      st, field, static_cast<R>(dt), steps, samples, [&](int, const typename System::State& now) {
        double y[kWords];
        for (int w = 0; w < kWords; ++w) y[w] = static_cast<double>(System::word(now, w));
        drift.push_back(static_cast<float>(relative_drift(Problem::energy({}, row + kWords, y), e0)));
      });
  std::vector<double> out(kWords);
  for (int w = 0; w < kWords; ++w) out[w] = static_cast<double>(System::word(st, w));
  return out;
}

TEST(ThreeBodyEnsemble, LanesGiveTheBitsOfOneScalarTrajectory) {
  constexpr int kTrajectories = 13;  // not a multiple of any vector width
  constexpr std::int64_t kSteps = 600;
  constexpr int kSamples = 3;
  const std::vector<double> rows = test::three_body_rows(kTrajectories);
  int compared = 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using Table = EnsembleIntegrators::at<I>;
          for (Precision p : {Precision::fp64, Precision::fp32, Precision::mixed}) {
            SmallEnsemble e = three_body(std::string(Table::name), 3.0, kSteps, rows);
            e.samples = kSamples;
            e.precision = p;
            std::vector<double> scalar;
            std::vector<float> drift;  // samples of each trajectory in turn
            for (int i = 0; i < kTrajectories; ++i) {
              const double* row = rows.data() + i * kRowWords;
              const auto one =
                  p == Precision::fp32
                      ? scalar_run<Table, float, false>(row, e.dt, kSteps, kSamples, drift)
                  : p == Precision::mixed
                      ? scalar_run<Table, double, true>(row, e.dt, kSteps, kSamples, drift)
                      : scalar_run<Table, double, false>(row, e.dt, kSteps, kSamples, drift);
              scalar.insert(scalar.end(), one.begin(), one.end());
            }
            for (const std::string& kernel : supported_lanes_kernel_names()) {
              const EnsembleOutcome out = e.run(Backend::cpu, kernel, 2);
              const std::string what =
                  std::string(Table::name) + " " + to_string(p) + " " + kernel;
              ASSERT_EQ(out.final_state.size(), scalar.size()) << what;
              for (std::size_t w = 0; w < scalar.size(); ++w)
                ASSERT_EQ(std::bit_cast<std::uint64_t>(out.final_state[w]),
                          std::bit_cast<std::uint64_t>(scalar[w]))
                    << what << " word " << w;
              for (int i = 0; i < kTrajectories; ++i)
                for (int s = 0; s < kSamples; ++s)
                  ASSERT_EQ(std::bit_cast<std::uint32_t>(out.drift[s * kTrajectories + i]),
                            std::bit_cast<std::uint32_t>(drift[i * kSamples + s]))
                      << what << " trajectory " << i << " sample " << s;
              ++compared;
            }
          }
        }(),
        ...);
  }(std::make_index_sequence<kEnsembleIntegratorCount>{});
  EXPECT_GE(compared, 3 * kEnsembleIntegratorCount);
}

TEST(ThreeBodyEnsemble, SectionFindsTheFigureEightsCentreEveryHalfPeriod) {
  // Body 1 crosses y1 = 0 at the centre of the eight (x1 = 0) twice a period, half a period
  // apart, first at T/3 (where body 3 started: the choreography), and at the eight's two tips;
  // located by Hénon's step to ~h⁵ here, the 8 digits of the start dominate.
  constexpr double kEightDigits = 1e-6;
  SmallEnsemble e = three_body("rk4", FigureEight::period, 800);
  e.section = {1, 0.0, 0, 16};
  const EnsembleOutcome out = e.run();
  ASSERT_EQ(out.section_count.size(), 1u);
  const std::int64_t found = out.section_count[0];
  EXPECT_GE(found, 3);
  int centres = 0, tips = 0;
  for (std::int64_t c = 0; c < std::min<std::int64_t>(found, 16); ++c) {
    const double* slot = out.section_points.data() + c * (kWords + 1);
    EXPECT_EQ(slot[1], 0.0) << "crossing " << c;
    if (std::abs(slot[0]) > 0.5) {
      ++tips;
      continue;
    }
    EXPECT_NEAR(slot[0], 0.0, kEightDigits);
    EXPECT_NEAR(slot[kWords], FigureEight::period / 3 + centres * FigureEight::period / 2,
                kEightDigits);
    ++centres;
  }
  EXPECT_EQ(centres, 2);
  EXPECT_EQ(tips, 2);
}

}  // namespace
}  // namespace orrery
