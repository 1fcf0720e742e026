// SPDX-License-Identifier: MIT
// Any table's register step together with what it carries from one step to the next, behind one
// interface, so that ensemble kernels (one trajectory per GPU thread or SIMD lane) are written
// once for every family:
//
//   Memory                          what the method keeps between steps
//   start(s, memory, accel)         before a trajectory's first step, and again whenever its
//                                   state has been copied back from outside the registers
//                                   (a parked GPU trajectory): fills what is not carried
//   step(s, memory, h, starting, accel)   one step; `starting` (bool, or a mask per SIMD lane)
//                                   holds during the first `starter_steps` of a trajectory
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

#include "orrery/integrate/body_state.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/multistep/register_stepper.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/splitting/register_stepper.hpp"

namespace orrery {

template <class Table, class T, int N, IntegratorFamily Family = Table::family>
struct RegisterIntegrator;

template <class Table, class T, int N>
struct RegisterIntegrator<Table, T, N, IntegratorFamily::explicit_runge_kutta> {
  struct Memory {};
  static constexpr int parked_words = 0;
  static constexpr int starter_steps = 0;
  static constexpr int working_words = 2 * Table::stages * N * 3;

  template <class Accel>
  ORRERY_HD static void start(BodyState<T, N>&, Memory&, const Accel&) {}
  template <class M, class Accel>
  ORRERY_HD static void step(BodyState<T, N>& s, Memory&, const T& h, const M&,
                             const Accel& accel) {
    rk_step<Table>(s, h, accel);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory&, F&&) {}
};

template <class Table, class T, int N>
struct RegisterIntegrator<Table, T, N, IntegratorFamily::splitting> {
  struct Memory {
    Vec3<T> a[N];  // a(x) of the current positions
  };
  static constexpr int parked_words = 0;
  static constexpr int starter_steps = 0;
  static constexpr int working_words = 0;  // kicks and drifts update in place

  template <class Accel>
  ORRERY_HD static void start(BodyState<T, N>& s, Memory& m, const Accel& accel) {
    accel(s.x, m.a);
  }
  template <class M, class Accel>
  ORRERY_HD static void step(BodyState<T, N>& s, Memory& m, const T& h, const M&,
                             const Accel& accel) {
    split_step<Table>(s, m.a, h, accel);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory&, F&&) {}
};

template <class Table, class T, int N>
struct RegisterIntegrator<Table, T, N, IntegratorFamily::multistep> {
  using Memory = AdamsHistory<Table, T, N>;
  // Slots 1 … steps − 1 of velocities and accelerations; slot 0 is the step's scratch.
  static constexpr int parked_words = 2 * (Table::steps - 1) * N * 3;
  static constexpr int starter_steps = Table::starter_steps;
  static constexpr int working_words = 0;  // slot 0 of the Memory is the step's scratch

  // The history fills during the starter steps, which never read it.
  template <class Accel>
  ORRERY_HD static void start(BodyState<T, N>&, Memory&, const Accel&) {}
  template <class M, class Accel>
  ORRERY_HD static void step(BodyState<T, N>& s, Memory& m, const T& h, const M& starting,
                             const Accel& accel) {
    adams_step(s, m, h, starting, accel);
  }
  template <class F>
  ORRERY_HD static void for_each_parked(Memory& m, F&& f) {
    int w = 0;
    ORRERY_UNROLL
    for (int j = 1; j < Table::steps; ++j)
      ORRERY_UNROLL
      for (int n = 0; n < N; ++n) {
        f(m.v[j][n].x, w++), f(m.v[j][n].y, w++), f(m.v[j][n].z, w++);
        f(m.a[j][n].x, w++), f(m.a[j][n].y, w++), f(m.a[j][n].z, w++);
      }
  }
};

// One step of a one-step method from a state alone (no memory kept from an earlier step): what
// a caller that does not keep the integrator's Memory between steps takes. A splitting method
// then evaluates a(x) at the start of the step, which gives the bits of the kept a(x).
template <class Table, class T, int N, class Accel>
ORRERY_HD void register_step(BodyState<T, N>& s, const T& h, const Accel& accel) {
  static_assert(has_register_stepper<Table>, "an implicit method has only an array stepper");
  using Integrator = RegisterIntegrator<Table, T, N>;
  static_assert(Integrator::starter_steps == 0 && Integrator::parked_words == 0,
                "a multistep method needs its history: keep its Memory between steps");
  typename Integrator::Memory memory;
  Integrator::start(s, memory, accel);
  Integrator::step(s, memory, h, false, accel);
}

}  // namespace orrery
