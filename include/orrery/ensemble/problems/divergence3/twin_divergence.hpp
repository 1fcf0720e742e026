// SPDX-License-Identifier: MIT
// The divergence map as an ensemble problem: one pixel, for any lane type (one GPU thread, one
// SIMD lane) and any register integrator (integrate/register_integrator.hpp):
//
//   for n = 0, 1, …, steps − 1:
//     if |x_b − x_b'|² ≤ d_c² (and held at every earlier n): count ← count + 1, else stop
//     advance both systems by one step of the integrator
//
// so count is the first step at which the twins are farther apart than d_c, or `steps`. What a
// backend needs of a problem is here: the state a trajectory carries (both systems, and what the
// integrator keeps between steps), its start from a pixel, the right-hand side (Newtonian
// gravity of three bodies, physics/pairwise_gravity.hpp), the observable compared with the stop
// threshold, the step, and the words that must leave the registers when a GPU trajectory is
// parked. The schedulers own the loop and what a lane does when it finishes.
//
// The varied body b is a template argument: a run-time index into register arrays would push
// them to memory on the GPU.
#pragma once

#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/integrate/register_integrator.hpp"
#include "orrery/physics/pairwise_gravity.hpp"

namespace orrery {

template <class Table, class T, class InverseCube, int Body>
struct TwinDivergence {
  using Integrator = RegisterIntegrator<Table, BodyState<T, kMapBodies>>;
  using Gravity = PairwiseGravity<kMapBodies, T, InverseCube>;
  using Real = T;
  static constexpr int body = Body;

  struct State {
    BodyState<T, kMapBodies> base, twin;
    typename Integrator::Memory base_memory, twin_memory;
  };

  // Steps of a trajectory during which `advance` must be told it is starting (multistep
  // starters); 0 for one-step methods.
  static constexpr int starter_steps = Integrator::starter_steps;
  // Words of one trajectory outside the registers: both systems' positions and velocities,
  // then the integrator's memory of each.
  static constexpr int parked_words = 2 * kMapBodies * 2 * 3 + 2 * Integrator::parked_words;
  // Words live during a step: both systems' states and memories, and one system's step
  // temporaries at a time.
  static constexpr int working_words =
      2 * kMapBodies * 2 * 3 + 2 * (sizeof(typename Integrator::Memory) / sizeof(T)) +
      Integrator::working_words;

  ORRERY_HD static Gravity gravity(const DivergenceSetup& s) {
    Gravity g;
    for (int n = 0; n < kMapBodies; ++n) g.gm[n] = broadcast<T>(s.gm[n]);
    return g;
  }

  // After the systems' positions and velocities are set (a pixel's start, or a parked state
  // copied back): what the integrator derives from them.
  ORRERY_HD static void begin(State& st, const Gravity& g) {
    Integrator::start(st.base, st.base_memory, g);
    Integrator::start(st.twin, st.twin_memory, g);
  }

  // The observable: the squared separation of the varied body from its twin. The pixel stops
  // when it is not ≤ d_c² (a NaN stops it too). B: another body, for a caller that chooses the
  // varied body at run time (the CPU lanes; the state does not depend on which body is varied).
  template <int B = Body>
  ORRERY_HD static T separation2(const State& st) {
    return norm2(st.base.x[B] - st.twin.x[B]);
  }

  // `starting`: bool, or a mask with one choice per SIMD lane.
  template <class M>
  ORRERY_HD static void advance(State& st, const Gravity& g, const T& dt, const M& starting) {
    Integrator::step(st.base, st.base_memory, dt, starting, g);
    Integrator::step(st.twin, st.twin_memory, dt, starting, g);
  }

  // f(word, index) for every parked word, in a fixed order.
  template <class F>
  ORRERY_HD static void for_each_parked(State& st, F&& f) {
    int w = 0;
    auto system = [&](BodyState<T, kMapBodies>& b) {
      ORRERY_UNROLL
      for (int n = 0; n < kMapBodies; ++n) {
        f(b.x[n].x, w++), f(b.x[n].y, w++), f(b.x[n].z, w++);
        f(b.v[n].x, w++), f(b.v[n].y, w++), f(b.v[n].z, w++);
      }
    };
    system(st.base);
    system(st.twin);
    auto memory = [&](typename Integrator::Memory& m) {
      Integrator::for_each_parked(m, [&](T& v, int i) { f(v, w + i); });
      w += Integrator::parked_words;
    };
    memory(st.base_memory);
    memory(st.twin_memory);
  }
};

}  // namespace orrery
