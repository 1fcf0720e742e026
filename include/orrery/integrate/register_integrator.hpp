// SPDX-License-Identifier: MIT
// Any table's register step together with what it carries from one step to the next, behind one
// interface, so that ensemble kernels (one trajectory per GPU thread or SIMD lane) are written
// once for every family. RegisterIntegrator<Table, State, Arithmetic>: State is a PhaseState
// (second order: every family below) or a FirstOrderState (explicit Runge–Kutta only);
// Arithmetic how each update rounds (integrate/step_arithmetic.hpp).
//
//   Memory                          what the method keeps between steps
//   start(s, memory, accel)         before a trajectory's first step, and again whenever its
//                                   state has been copied back from outside the registers
//                                   (a parked GPU trajectory): fills what is not carried
//   step(s, memory, h, starting, accel)   one step; `starting` (bool, or a mask per SIMD lane)
//                                   holds during the first `starter_steps` of a trajectory
//   run(s, memory, h, m, accel)     m ≥ 1 steps of a one-step method (a splitting method merges
//                                   the kicks between them: splitting/register_stepper.hpp)
//   parked_words, for_each_parked   the words of Memory a trajectory must carry when it leaves
//                                   the registers, visited as f(word, index)
//   working_words                   the words a step holds besides the state and the Memory
//                                   (stage values, the current derivatives): with them, what a
//                                   GPU kernel's registers must fit
//
// Explicit Runge–Kutta keeps nothing. A splitting method keeps a(x) for the next step's first
// kick (first same as last: leapfrog evaluates the forces once per step); a(x) is a function of
// x alone, evaluated by the same instructions, so recomputing it in start() gives the bits it
// had and it is never carried. Adams–Bashforth keeps the derivatives of its last steps, which
// no recomputation can recover: they are carried.
#pragma once

#include <cstdint>

#include "orrery/integrate/body_state.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/step_arithmetic.hpp"
#include "orrery/integrate/multistep/register_stepper.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/splitting/register_stepper.hpp"

namespace orrery {

template <class Table, class State, class Arithmetic = SumThenScale,
          IntegratorFamily Family = Table::family>
struct RegisterIntegrator;

// Any state: a second-order one advances as the first-order system (x, v)' = (v, a(x)).
template <class Table, class State_, class Arithmetic>
struct RegisterIntegrator<Table, State_, Arithmetic, IntegratorFamily::explicit_runge_kutta> {
  using State = State_;
  using T = typename StateTraits<State>::Lane;
  struct Memory {};
  static constexpr int parked_words = 0;
  static constexpr int starter_steps = 0;
  static constexpr int working_words = Table::stages * StateTraits<State>::words;
  // Steps a GPU thread takes per iteration of run()'s loop: a small system's step is short enough
  // that the loop's counting and branch, and the stages no schedule may overlap across the loop's
  // back edge, cost 10–16 % (Lorenz fp32, tsit5 and dopri5, one H100); a large state's step is
  // long, and four copies of it would cost registers and compile time for nothing.
  static constexpr int kDeviceStepsPerIteration = working_words <= 48 ? 4 : 1;

  template <class F>
  ORRERY_HD static void start(State&, Memory&, const F&) {}
  template <class M, class F>
  ORRERY_HD static void step(State& s, Memory&, const T& h, const M&, const F& f) {
    rk_step<Table, Arithmetic>(s, h, f);
  }
  template <class F>
  ORRERY_HD static void run(State& s, Memory&, const T& h, std::int64_t m, const F& f) {
#ifdef __CUDA_ARCH__
#pragma unroll(kDeviceStepsPerIteration)
#endif
    for (std::int64_t i = 0; i < m; ++i) rk_step<Table, Arithmetic>(s, h, f);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory&, F&&) {}
};

template <class Table, class E, int N, class Arithmetic>
struct RegisterIntegrator<Table, PhaseState<E, N>, Arithmetic, IntegratorFamily::splitting> {
  using State = PhaseState<E, N>;
  using T = element_lane_t<E>;
  struct Memory {
    E a[N];  // a(x) of the current positions
  };
  static constexpr int parked_words = 0;
  static constexpr int starter_steps = 0;
  static constexpr int working_words = 0;  // kicks and drifts update in place

  template <class Accel>
  ORRERY_HD static void start(State& s, Memory& m, const Accel& accel) {
    accel(s.x, m.a);
  }
  template <class M, class Accel>
  ORRERY_HD static void step(State& s, Memory& m, const T& h, const M&, const Accel& accel) {
    split_step<Table, Arithmetic>(s, m.a, h, accel);
  }
  template <class Accel>
  ORRERY_HD static void run(State& s, Memory& m, const T& h, std::int64_t steps,
                                const Accel& accel) {
    split_run<Table, Arithmetic>(s, m.a, h, steps, accel);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory&, F&&) {}
};

template <class Table, class E, int N, class Arithmetic>
struct RegisterIntegrator<Table, PhaseState<E, N>, Arithmetic, IntegratorFamily::multistep> {
  using State = PhaseState<E, N>;
  using T = element_lane_t<E>;
  using Memory = AdamsMemory<Table, E, N>;
  // Slots 1 … steps − 1 of velocities and accelerations; slot 0 is the step's scratch.
  static constexpr int parked_words = 2 * (Table::steps - 1) * N * ElementTraits<E>::words;
  static constexpr int starter_steps = Table::starter_steps;
  static constexpr int working_words = 0;  // slot 0 of the Memory is the step's scratch

  // The history fills during the starter steps, which never read it.
  template <class Accel>
  ORRERY_HD static void start(State&, Memory&, const Accel&) {}
  template <class M, class Accel>
  ORRERY_HD static void step(State& s, Memory& m, const T& h, const M& starting,
                             const Accel& accel) {
    adams_step<Arithmetic>(s, m, h, starting, accel);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory& m, F&& f) {
    int w = 0;
    const auto word = [&](T& value) { f(value, w++); };
    ORRERY_UNROLL
    for (int j = 1; j < Table::steps; ++j)
      ORRERY_UNROLL
      for (int n = 0; n < N; ++n) {
        ElementTraits<E>::for_each_word(m.v[j][n], word);
        ElementTraits<E>::for_each_word(m.a[j][n], word);
      }
  }
};

// Whether a table has a register stepper: a family with a RegisterIntegrator above (one-step
// tables, and the multistep tables the register Adams stepper can start, whose starter is
// explicit Euler: the map's, multistep/adams_bashforth.hpp). Families whose step iterates or
// adapts (extrapolation, implicit, ias15, block steps) and the Adams methods started by a
// Runge–Kutta method of their own order (multistep/adams_methods.hpp, `orrery sim`'s) have an
// array stepper only: the registry says so (IntegratorInfo::register_stepper), and code over
// every table asks this before stepping in registers.
template <class Table>
inline constexpr bool has_register_stepper =
    requires { typename RegisterIntegrator<Table, BodyState<double, 1>>::Memory; } &&
    !(Table::family == IntegratorFamily::multistep && requires { typename Table::Starter; });

// One step of a one-step method from a state alone (no memory kept from an earlier step): what
// a caller that does not keep the integrator's Memory between steps takes. A splitting method
// then evaluates a(x) at the start of the step, which gives the bits of the kept a(x).
template <class Table, class E, int N, class Accel>
ORRERY_HD void register_step(PhaseState<E, N>& s, const element_lane_t<E>& h,
                             const Accel& accel) {
  static_assert(has_register_stepper<Table>, "this table has an array stepper only");
  using Integrator = RegisterIntegrator<Table, PhaseState<E, N>>;
  static_assert(Integrator::starter_steps == 0 && Integrator::parked_words == 0,
                "a multistep method needs its history: keep its Memory between steps");
  typename Integrator::Memory memory{};
  Integrator::start(s, memory, accel);
  Integrator::step(s, memory, h, false, accel);
}

}  // namespace orrery
