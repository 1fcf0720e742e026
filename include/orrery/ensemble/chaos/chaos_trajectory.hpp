// SPDX-License-Identifier: MIT
// One trajectory (or one per SIMD lane) with an indicator of chaos: the state and the
// indicator's deviation vectors advanced by the integrator's tangent map
// (ensemble/chaos/tangent_system.hpp), the vectors handed to the indicator after every `every`
// steps (it renormalises or orthonormalises them and updates its sums), and the indicator's
// values read at `samples` evenly spaced intervals (sample s after interval ⌈I·s/S⌉ of the
// I = steps/every). The agent shared by the CPU lanes and the CUDA kernel.
//
// An Indicator<T, D> gives `vectors` (K), `outputs`, configure(options), start(w), update(w, k)
// and read(out, t, k) (ensemble/chaos/growth_indicators.hpp, sali_indicator.hpp,
// lyapunov_spectrum.hpp); one that declares `watches_state` also sees the state's values after
// every interval, watch(y, t).
#pragma once

#include <cstdint>

#include "orrery/ensemble/chaos/tangent_system.hpp"

// The callback after every interval inlined on the host: GCC otherwise calls it out of line once
// a step grows (dual numbers on a SIMD group of lanes), storing and reloading the state around
// every call. nvcc inlines a device lambda by itself.
#if defined(__CUDACC__)
#define ORRERY_CHAOS_INLINE_LAMBDA
#else
#define ORRERY_CHAOS_INLINE_LAMBDA __attribute__((always_inline))
#endif

namespace orrery {

// The word of an indicator's deviation vectors: its lane type (T, or DoubleDouble<T> beside an
// fp64 state, ensemble/chaos/tangent_system.hpp).
template <class Indicator>
struct IndicatorWord;
template <template <class, int> class I, class W, int D>
struct IndicatorWord<I<W, D>> {
  using type = W;
};
template <class Indicator>
using indicator_word_t = typename IndicatorWord<Indicator>::type;

// Requires steps to be a multiple of every (each interval the same time τ = every·dt, which the
// MEGNO's discrete form assumes) and 1 ≤ samples ≤ steps/every; the job checks both.
template <class Problem, class Table, class Indicator, class T, class Field, class Sample>
ORRERY_HD void chaos_trajectory(
    typename TangentSystem<Problem, T, Indicator::vectors, indicator_word_t<Indicator>>::State& st,
    const Field& field, const T& dt, std::int64_t steps, std::int64_t every, int samples,
    Indicator& indicator, Sample&& sample) {
  using W = indicator_word_t<Indicator>;
  using TS = TangentSystem<Problem, T, Indicator::vectors, W>;
  typename TS::Vectors w;
  indicator.start(w.w);
  TS::set_vectors(st, w);
  const std::int64_t intervals = steps / every;
  int next = 1;
  integrate_tangent<Problem, Table, T, Indicator::vectors, W>(
      st, field, dt, steps, intervals, [&](std::int64_t k, typename TS::State& s) ORRERY_CHAOS_INLINE_LAMBDA {
        TS::get_vectors(s, w);
        indicator.update(w.w, k);
        TS::set_vectors(s, w);
        const auto time = [&] {
          return tangent_word<W>(T(dt * T(static_cast<lane_scalar_t<T>>(k * every))));
        };
        if constexpr (requires { Indicator::watches_state; }) {
          W y[TS::D];
          for (int i = 0; i < TS::D; ++i) y[i] = tangent_word<W>(TS::value(s, i));
          indicator.watch(y, time());
        }
        for (; next <= samples && k * samples >= intervals * next; ++next) {
          W out[Indicator::outputs];
          indicator.read(out, time(), k);
          sample(next, static_cast<const W(&)[Indicator::outputs]>(out));
        }
      });
}

}  // namespace orrery
