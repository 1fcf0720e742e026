// SPDX-License-Identifier: MIT
// One Adams–Bashforth step (integrate/multistep/adams_bashforth.hpp) of a second-order system
// x'' = a(x) held in registers, for any lane and element type (integrate/phase_state.hpp):
//
//   F_0 = (v_n, a(x_n));   x_{n+1} = x_n + h Σ_j β_j V_j,   v_{n+1} = v_n + h Σ_j β_j A_j
//
// with (V_j, A_j) = F_j the values of j steps ago, then the history moves up by one. Each sum is
// evaluated as the register Runge–Kutta stepper's (integrate/runge_kutta/register_stepper.hpp:
// s = β_0 K_0, s ← fma(β_j, K_j, s), y ← fma(h, s, y)), so the array and register forms of a
// future multistep family share one contract. While `starting` (the first `starter_steps` steps
// of a trajectory) the step is explicit Euler, v ← fma(h, a, v), x ← fma(h, v_old, x), and the
// history fills. `starting` is a bool for a scalar lane type and a mask for a SIMD one (lanes of
// one vector start their trajectories at different steps); both updates are then computed and
// each lane keeps its own.
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/body_state.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/multistep/adams_bashforth.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/step_arithmetic.hpp"

namespace orrery {

// The derivatives of the last `Table::steps` steps; slot 0 is the current step's (scratch
// between steps), slots 1 … steps − 1 are the history a trajectory carries.
template <class Table, class E, int N>
struct AdamsMemory {
  E v[Table::steps][N];
  E a[Table::steps][N];
};
// The history of N bodies.
template <class Table, class T, int N>
using AdamsHistory = AdamsMemory<Table, Vec3<T>, N>;

namespace detail {

// The weights β_j seen as the b row of a tableau, the form rk_combine reads.
template <class Table>
struct AdamsWeights {
  ORRERY_HD static constexpr double b(int j) { return Table::beta(j); }
  ORRERY_HD static constexpr double a(int, int) { return 0.0; }
};

}  // namespace detail

template <class Arithmetic = SumThenScale, class Table, class E, int N, class M, class Accel>
ORRERY_HD void adams_step(PhaseState<E, N>& s, AdamsMemory<Table, E, N>& f,
                          const element_lane_t<E>& h, const M& starting, const Accel& accel) {
  constexpr int S = Table::steps;
  using Weights = detail::TableauRow<detail::AdamsWeights<Table>, -1>;
  accel(s.x, f.a[0]);
  ORRERY_UNROLL
  for (int n = 0; n < N; ++n) {
    f.v[0][n] = s.v[n];
    const E euler_x = mul_add(h, s.v[n], s.x[n]);
    const E euler_v = mul_add(h, f.a[0][n], s.v[n]);
    s.x[n] = select_element(starting, euler_x,
                            detail::rk_combine<Weights, S, Arithmetic>(s.x[n], h, f.v, n));
    s.v[n] = select_element(starting, euler_v,
                            detail::rk_combine<Weights, S, Arithmetic>(s.v[n], h, f.a, n));
  }
  ORRERY_UNROLL
  for (int j = S - 1; j > 0; --j)
    ORRERY_UNROLL
    for (int n = 0; n < N; ++n) {
      f.v[j][n] = f.v[j - 1][n];
      f.a[j][n] = f.a[j - 1][n];
    }
}

}  // namespace orrery
