// SPDX-License-Identifier: MIT
// One table, two steppers: the register stepper (PairwiseGravity) and the array stepper (the
// "direct" engine) give the same bits, for every integrator and precision. That holds because
// both right-hand sides sum each body's partners in increasing order with the same fma chain,
// and with G = 1, ε = 0 and masses that are powers of two the remaining differences vanish:
// the engine forms m_j/(r²√r²) and applies G after the sum, PairwiseGravity forms
// (G m_j)·(1/(r²√r²)); with G = 1 and m_j = 2^k both are the same scaling of one rounded value.
// Tables with an array stepper only (IntegratorInfo::register_stepper false: the Adams methods
// with a Runge–Kutta starter) take no part in the parity tests.
// Also: a stepper's saved state resumes a run bit for bit, and a loaded state is the one used.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "array_run.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/physics/pairwise_gravity.hpp"
#include "orrery/integrate/counting_system.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/register_integrator.hpp"

namespace orrery {
namespace {

constexpr int kSteps = 20;

template <class Real>
BodyState<Real, 3> three_bodies() {
  BodyState<Real, 3> s;
  s.x[0] = {Real(1.0), Real(0.1), Real(0.05)};
  s.x[1] = {Real(-0.5), Real(0.8), Real(0.0)};
  s.x[2] = {Real(0.1), Real(-0.6), Real(-0.2)};
  s.v[0] = {Real(0.0), Real(0.7), Real(0.1)};
  s.v[1] = {Real(-0.6), Real(-0.2), Real(0.0)};
  s.v[2] = {Real(0.3), Real(-0.1), Real(-0.05)};
  return s;
}

template <class Real, int N>
void expect_same_bits(const BodyState<Real, N>& a, const BodyState<Real, N>& b,
                      const std::string& what) {
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << what;
}

template <class Real>
void expect_same_state(const StepperState<Real>& a, const StepperState<Real>& b,
                       const std::string& what) {
  ASSERT_EQ(a.arrays().size(), b.arrays().size()) << what;
  ASSERT_EQ(a.scalars().size(), b.scalars().size()) << what;
  for (std::size_t i = 0; i < a.arrays().size(); ++i) {
    EXPECT_EQ(a.arrays()[i].name, b.arrays()[i].name) << what;
    ASSERT_EQ(a.arrays()[i].values.size(), b.arrays()[i].values.size()) << what;
    EXPECT_EQ(std::memcmp(a.arrays()[i].values.data(), b.arrays()[i].values.data(),
                          a.arrays()[i].values.size() * sizeof(Real)), 0) << what;
  }
  for (std::size_t i = 0; i < a.scalars().size(); ++i) {
    EXPECT_EQ(a.scalars()[i].name, b.scalars()[i].name) << what;
    EXPECT_EQ(std::memcmp(&a.scalars()[i].value, &b.scalars()[i].value, sizeof(Real)), 0) << what;
  }
}

template <class Real>
BodyState<Real, 3> register_run(const std::string& name, BodyState<Real, 3> s, Real h,
                                const PairwiseGravity<3, Real>& gravity, int steps) {
  visit_integrator(name, [&]<class Table>() {
    if constexpr (has_register_stepper<Table>)
      for (int i = 0; i < steps; ++i) register_step<Table>(s, h, gravity);
  });
  return s;
}

std::vector<std::string> register_integrator_names() {
  std::vector<std::string> names;
  for (const IntegratorInfo& info : integrators())
    if (info.register_stepper) names.emplace_back(info.name);
  return names;
}

template <class Real>
class RegisterArrayParity : public ::testing::Test {};
using Reals = ::testing::Types<float, double, float128>;
TYPED_TEST_SUITE(RegisterArrayParity, Reals);

TYPED_TEST(RegisterArrayParity, RegisterAndArrayStepperGiveTheSameBits) {
  using Real = TypeParam;
  const Real mass[3] = {Real(1), Real(0.5), Real(2)};
  const PairwiseGravity<3, Real> gravity{{mass[0], mass[1], mass[2]}};
  const Real h(0.01);
  for (const std::string& name : register_integrator_names()) {
    const BodyState<Real, 3> expected = register_run(name, three_bodies<Real>(), h, gravity, kSteps);
    test::ArrayRun<Real, 3> run(name, three_bodies<Real>(), mass, 1.0, "generic");
    for (int i = 0; i < kSteps; ++i) run.step(h);
    expect_same_bits(run.state(), expected, name);
    // The state moved: equality of unchanged states would prove nothing.
    const BodyState<Real, 3> start = three_bodies<Real>();
    EXPECT_NE(std::memcmp(&expected, &start, sizeof expected), 0) << name;
  }
}

// With G ≠ 1 and general masses the two right-hand sides round G·m_j/(r²√r²) differently (by an
// ulp), so the steppers agree only to rounding: after 20 steps of 0.001 the relative difference
// is of order 20 · 10⁻¹⁶; the bound leaves a factor 50.
constexpr double kGeneralMassAgreement = 1e-13;

TEST(StepperParity, GeneralMassesAgreeToRounding) {
  const double mass[3] = {10, 20, 30};
  const double g = 9.8;
  const PairwiseGravity<3, double> gravity{{g * mass[0], g * mass[1], g * mass[2]}};
  BodyState<double, 3> start;
  start.x[0] = {-10, 2, -11};
  start.x[1] = {0, 0, 0};
  start.x[2] = {10, 10, 12};
  start.v[0] = {-3, 0, 0};
  start.v[1] = {0, 0, 0};
  start.v[2] = {3, 0, 0};
  for (const std::string& name : register_integrator_names()) {
    const BodyState<double, 3> expected = register_run(name, start, 0.001, gravity, kSteps);
    test::ArrayRun<double, 3> run(name, start, mass, g);
    for (int i = 0; i < kSteps; ++i) run.step(0.001);
    const BodyState<double, 3> got = run.state();
    for (int n = 0; n < 3; ++n) {
      EXPECT_LE(std::sqrt(norm2(got.x[n] - expected.x[n]) / norm2(expected.x[n] - start.x[1])),
                kGeneralMassAgreement) << name;
      EXPECT_LE(std::sqrt(norm2(got.v[n] - expected.v[n]) / norm2(expected.v[n] - start.v[1])),
                kGeneralMassAgreement) << name;
    }
  }
}

// An implicit method's state is its predictor: a run cleared before every step starts each
// iteration elsewhere, so it converges to other rounding, and agrees to within what 20 steps of
// rounding at the level of the fixed-point rule's stop (~10⁻¹⁶ relative each) leave, by far.
constexpr double kClearedImplicitAgreement = 1e-13;

// A run resumed half way on a fresh engine and stepper, from the state and the stepper's saved
// state (a checkpoint), gives the bits of an uninterrupted run. So does one whose stepper is
// cleared before every step, for a one-step method whose state is a(x), a function of x alone
// (not ias15's, which carries the last step's polynomial and the compensations); a multistep
// method then starts afresh at every step, which makes it its starter, bit for bit; an implicit
// method's predictor differs, so it agrees only to its iteration's rounding.
TEST(StepperParity, ClearAndResumeGiveTheSameBits) {
  const double mass[3] = {1, 0.5, 2};
  const double h = 0.01;
  for (const IntegratorInfo& info : integrators()) {
    const std::string name(info.name);
    test::ArrayRun<double, 3> plain(name, three_bodies<double>(), mass);
    test::ArrayRun<double, 3> with_clear(name, three_bodies<double>(), mass);
    test::ArrayRun<double, 3> starter(info.starter_steps > 0 ? info.starter : info.name,
                                      three_bodies<double>(), mass);
    test::ArrayRun<double, 3> first_half(name, three_bodies<double>(), mass);
    for (int i = 0; i < kSteps; ++i) {
      plain.step(h);
      with_clear.stepper().clear();
      with_clear.step(h);
      starter.step(h);
      if (i < kSteps / 2) first_half.step(h);
    }
    StepperState<double> saved;
    first_half.stepper().save(first_half.engine(), saved);
    test::ArrayRun<double, 3> resumed(name, first_half.state(), mass);
    resumed.stepper().load(resumed.engine(), saved);
    StepperState<double> reloaded;
    resumed.stepper().save(resumed.engine(), reloaded);
    expect_same_state(reloaded, saved, name + " saved state round trip");
    for (int i = kSteps / 2; i < kSteps; ++i) resumed.step(h);
    if (info.family == IntegratorFamily::ias15)
      continue;  // its state is not a function of x alone
    if (info.implicit) {
      const BodyState<double, 3> a = with_clear.state(), b = plain.state();
      for (int n = 0; n < 3; ++n) {
        EXPECT_LE(std::sqrt(norm2(a.x[n] - b.x[n])), kClearedImplicitAgreement) << name;
        EXPECT_LE(std::sqrt(norm2(a.v[n] - b.v[n])), kClearedImplicitAgreement) << name;
      }
    } else if (info.starter_steps == 0) {
      expect_same_bits(with_clear.state(), plain.state(), name + " with clear");
    } else {
      expect_same_bits(with_clear.state(), starter.state(), name + " cleared is its starter");
    }
    expect_same_bits(resumed.state(), plain.state(), name + " resumed");
    // A state replaced from outside, announced by clear(), continues as a fresh run from it:
    // the kept a(x) of the old state is not used.
    plain.set_state(three_bodies<double>());
    plain.stepper().clear();
    test::ArrayRun<double, 3> fresh(name, three_bodies<double>(), mass);
    plain.step(h);
    fresh.step(h);
    expect_same_bits(plain.state(), fresh.state(), name + " after clear");
  }
}

// The loaded state is the one used: kept accelerations that differ from a(x) change the next
// kick (a stepper that ignored load() and recomputed a(x) would fail this).
TEST(StepperParity, ALoadedStateIsUsed) {
  const double mass[3] = {1, 0.5, 2};
  const double h = 0.01;
  for (const char* name : {"leapfrog", "yoshida4"}) {
    test::ArrayRun<double, 3> run(name, three_bodies<double>(), mass);
    run.step(h);
    StepperState<double> saved;
    run.stepper().save(run.engine(), saved);
    const std::vector<double>* a = saved.find_array("accelerations");
    ASSERT_NE(a, nullptr) << name << ": a kick-ending table keeps a(x)";
    StepperState<double> doubled = saved;
    std::vector<double> twice = *a;
    for (double& value : twice) value *= 2;
    doubled.set_array("accelerations", twice);

    test::ArrayRun<double, 3> faithful(name, run.state(), mass);
    faithful.stepper().load(faithful.engine(), saved);
    test::ArrayRun<double, 3> altered(name, run.state(), mass);
    altered.stepper().load(altered.engine(), doubled);
    run.step(h);
    faithful.step(h);
    altered.step(h);
    expect_same_bits(faithful.state(), run.state(), std::string(name) + " faithful");
    const BodyState<double, 3> f = faithful.state(), g = altered.state();
    EXPECT_NE(std::memcmp(&f, &g, sizeof f), 0) << name << ": the loaded a(x) was not used";
  }
}

// A state another stepper saved is refused, not silently misread.
TEST(StepperParity, LoadRefusesAForeignState) {
  const double mass[3] = {1, 0.5, 2};
  test::ArrayRun<double, 3> leapfrog("leapfrog", three_bodies<double>(), mass);
  leapfrog.step(0.01);
  StepperState<double> kept;
  leapfrog.stepper().save(leapfrog.engine(), kept);
  test::ArrayRun<double, 3> rk4("rk4", three_bodies<double>(), mass);
  EXPECT_THROW(rk4.stepper().load(rk4.engine(), kept), InputError);
  StepperState<double> empty;
  EXPECT_THROW(leapfrog.stepper().load(leapfrog.engine(), empty), InputError);
}

// A fixed-step method reports every step accepted, of the size asked, with no error estimate
// (every method without --tolerance but ias15, which always controls its step).
TEST(StepperParity, FixedStepReports) {
  const double mass[3] = {1, 0.5, 2};
  for (const std::string& name : integrator_names()) {
    if (find_integrator(name).family == IntegratorFamily::ias15) continue;
    test::ArrayRun<double, 3> run(name, three_bodies<double>(), mass);
    const StepReport<double> r = run.stepper().step(run.engine(), run.x(), run.v(), 0.01);
    EXPECT_TRUE(r.accepted) << name;
    EXPECT_EQ(r.taken, 0.01) << name;
    EXPECT_EQ(r.next, 0.01) << name;
    EXPECT_FALSE(r.error.has_value()) << name;
  }
}

// The register stepper that keeps a(x) between steps gives the bits of the one that does not.
TEST(StepperParity, KeptAccelerationsGiveTheSameBits) {
  const PairwiseGravity<3, double> gravity{{1, 0.5, 2}};
  auto check = [&]<class Table>() {
    BodyState<double, 3> plain = three_bodies<double>(), kept = plain;
    Vec3<double> a[3];
    gravity(kept.x, a);
    for (int i = 0; i < kSteps; ++i) {
      split_step<Table>(plain, 0.01, gravity);
      split_step<Table>(kept, a, 0.01, gravity);
    }
    expect_same_bits(kept, plain, Table::name);
  };
  check.template operator()<SymplecticEuler>();
  check.template operator()<LeapfrogKDK>();
  check.template operator()<Yoshida4>();
  check.template operator()<Yoshida6>();
  check.template operator()<Yoshida8>();
}

using Counting = CountingSystem<double>;

// The registry's "force evaluations per step" is what the array stepper does once steps follow
// each other (the first step of a first-same-as-last method evaluates once more; a multistep
// method's starter steps cost what its starter costs, no more). For an implicit method it is per
// sweep of the iteration: a step evaluates its explicit stages (stages − that)
// once and then makes whole sweeps, at least two (one to change, one to see the change stop).
TEST(StepperParity, ForceEvaluationsPerStepMatchTheRegistry) {
  const double mass[3] = {1, 0.5, 2};
  for (const IntegratorInfo& info : integrators()) {
    // ias15 iterates until converged: its count varies (tests/integrate/ias15_test.cpp).
    if (info.family == IntegratorFamily::ias15) continue;
    test::ArrayRun<double, 3> run(info.name, three_bodies<double>(), mass);
    Counting counting(run.engine());
    for (int i = 0; i <= info.starter_steps; ++i) run.step(counting, 0.01);
    const int first = counting.evaluations;
    if (info.implicit) {
      for (int i = 0; i < 10; ++i) {
        const int before = counting.evaluations;
        run.step(counting, 0.01);
        const int swept = counting.evaluations - before - (info.stages - info.force_evaluations);
        EXPECT_EQ(swept % info.force_evaluations, 0) << info.name;
        EXPECT_GE(swept, 2 * info.force_evaluations) << info.name;
      }
      continue;
    }
    for (int i = 0; i < 10; ++i) run.step(counting, 0.01);
    EXPECT_EQ(counting.evaluations - first, 10 * info.force_evaluations) << info.name;
    const int starting = info.starter_steps > 0 ? info.starter_steps *
                                                      find_integrator(info.starter).force_evaluations
                                                : 0;
    EXPECT_LE(first, starting + info.force_evaluations + 1) << info.name;
  }
}

}  // namespace
}  // namespace orrery
