// SPDX-License-Identifier: MIT
// A first-same-as-last pair (runge_kutta/embedded_register_step.hpp: the last stage taken at the
// candidate, a_{s−1,j} = b_j and b_{s−1} = 0) hands the field at its candidate to the next step:
// the step that starts from it gives the bits of the step that evaluates it again, and the field
// it hands on is the field at the candidate, bit for bit. Checked for tsit5 and dopri5 (the two
// pairs that are first same as last) on a first-order system (Lorenz) and a second-order one
// (Kepler), in double and float, over a chain of steps; DOP853's last stage is not at its
// candidate, and is not treated as one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "orrery/integrate/integrator_tables.hpp"
#include "orrery/integrate/runge_kutta/embedded_register_step.hpp"

namespace orrery {
namespace {

template <class T>
struct Lorenz {  // σ = 10, ρ = 28, β = 8/3
  void operator()(const T (&y)[3], T (&f)[3]) const {
    f[0] = T(10) * (y[1] - y[0]);
    f[1] = y[0] * (T(28) - y[2]) - y[1];
    f[2] = y[0] * y[1] - T(8) / T(3) * y[2];
  }
};

template <class T>
struct Kepler {  // a = −q/|q|³
  void operator()(const T (&q)[2], T (&a)[2]) const {
    const T r2 = q[0] * q[0] + q[1] * q[1];
    const T inv3 = T(1) / (r2 * std::sqrt(r2));
    a[0] = -q[0] * inv3;
    a[1] = -q[1] * inv3;
  }
};

template <class A, class B>
bool same_bits(const A& a, const B& b) {
  static_assert(sizeof(A) == sizeof(B));
  return std::memcmp(&a, &b, sizeof(A)) == 0;
}

TEST(FirstSameAsLast, OnlyThePairsWhoseLastStageIsAtTheCandidate) {
  EXPECT_TRUE(detail::last_stage_at_candidate<Tsitouras5>());
  EXPECT_TRUE(detail::last_stage_at_candidate<DormandPrince5>());
  EXPECT_FALSE(detail::last_stage_at_candidate<DormandPrince853>());
  EXPECT_FALSE(detail::last_stage_at_candidate<ClassicRK4>());
}

// Steps the state `steps` times both ways, each step a little longer than the one before (as a
// step control's would be), and compares every candidate, error estimate and carried field.
template <class Pair, class State, class Field>
void expect_carried_steps_agree(State s, const Field& field, double h0, int steps) {
  using Carried = FieldAtState<Pair, State>;
  ASSERT_TRUE(Carried::carried);
  using E = std::remove_cvref_t<decltype(Carried{}.value[0])>;
  State plain = s;
  Carried at;
  at.evaluate(s, field);
  for (int n = 0; n < steps; ++n) {
    const E h = static_cast<E>(h0 * (1.0 + 0.01 * n));
    State next_plain, error_plain, next, error;
    rk_embedded_step<Pair, ScaleEachTerm>(plain, next_plain, error_plain, h, field);
    Carried at_next;
    rk_embedded_step<Pair, ScaleEachTerm>(s, next, error, h, field, &at.value, &at_next.value);
    ASSERT_TRUE(same_bits(next, next_plain)) << "step " << n;
    ASSERT_TRUE(same_bits(error, error_plain)) << "step " << n;
    Carried fresh;
    fresh.evaluate(next, field);
    ASSERT_TRUE(same_bits(at_next.value, fresh.value)) << "step " << n;
    plain = next_plain;
    s = next;
    at = at_next;
  }
}

template <class T>
class FirstSameAsLastReal : public ::testing::Test {};
using Reals = ::testing::Types<double, float>;
TYPED_TEST_SUITE(FirstSameAsLastReal, Reals);

TYPED_TEST(FirstSameAsLastReal, CarriedFieldGivesTheBitsOfAFreshOne) {
  using T = TypeParam;
  const FirstOrderState<T, 3> lorenz{{T(1), T(0), T(0)}};
  const PhaseState<T, 2> kepler{{T(1), T(0)}, {T(0), T(1.2)}};
  expect_carried_steps_agree<Tsitouras5>(lorenz, Lorenz<T>{}, 1e-3, 200);
  expect_carried_steps_agree<DormandPrince5>(lorenz, Lorenz<T>{}, 1e-3, 200);
  expect_carried_steps_agree<Tsitouras5>(kepler, Kepler<T>{}, 1e-2, 200);
  expect_carried_steps_agree<DormandPrince5>(kepler, Kepler<T>{}, 1e-2, 200);
}

}  // namespace
}  // namespace orrery
