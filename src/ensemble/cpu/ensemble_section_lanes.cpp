// SPDX-License-Identifier: MIT
// The CPU ensemble lanes of a run with a surface of section (EnsembleSetup::section), compiled
// once per instruction set and problem with ensemble_lanes.cpp, in one translation unit (its
// headers parsed once, src/CMakeLists.txt), and in functions of its own, so that a run without a
// section runs the very code it ran before. Every step is watched
// (integrate_watched_trajectory, or the controlled agent's watch; ensemble/section_crossing.hpp)
// and each lane's crossings are written to its trajectory's slots as they are found.
#include <cmath>
#include <cstdint>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "ensemble/cpu/lane_block.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/section_crossing.hpp"

#if !defined(ORRERY_CPU_KERNEL) || !defined(ORRERY_ENSEMBLE_PROBLEM)
#error "compile with -DORRERY_CPU_KERNEL=<isa> -DORRERY_ENSEMBLE_PROBLEM=<index>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// The crossings of the block's lanes: counted per lane, the first K written to the run's slots.
template <class Problem, class V>
struct LaneCrossings {
  static constexpr int L = static_cast<int>(V::size()), D = EnsembleSystem<Problem, V>::D;
  static constexpr int W = D + 1;
  EnsembleTaskSource& src;
  std::int64_t first, count;
  std::int64_t found[L] = {};

  void operator()(const typename V::mask_type& crossed, const V (&y)[D], const V& t) {
    const int K = src.setup.section.capacity;
    for (int l = 0; l < count; ++l) {
      if (!crossed[l]) continue;
      if (found[l] < K) {
        double* slot = src.section_points + ((first + l) * K + found[l]) * W;
        for (int w = 0; w < D; ++w) slot[w] = static_cast<double>(y[w][l]);
        slot[D] = static_cast<double>(t[l]);
      }
      ++found[l];
    }
  }

  // Each lane's count, and NaN in the slots it did not fill.
  void finish() const {
    const int K = src.setup.section.capacity;
    for (int l = 0; l < count; ++l) {
      src.section_count[first + l] = found[l];
      for (std::int64_t c = found[l]; c < K; ++c)
        for (int w = 0; w < W; ++w) src.section_points[((first + l) * K + c) * W + w] = NAN;
    }
  }
};

// The crossing's step (ensemble/section_crossing.hpp) called, not inlined: one copy per locating
// method, field and lane type, which the integrators locating with the same method and the
// fixed-step and adaptive lanes of one share. Internal to this file's instruction set, as
// OutOfLineField (lane_block.hpp). A crossing is rare beside the steps, so the call costs nothing.
template <class Problem, class Method, class V, class Field>
struct OutOfLineLocate {
  template <class X>
  [[gnu::noinline]] static void step(X& x, const V& ds, const Field& field, int word) {
    SectionLocate<Problem, Method, V, Field>::step(x, ds, field, word);
  }
};

// A recorder the watch holds by value: the block's crossings by reference.
template <class Problem, class V>
struct RecordInto {
  LaneCrossings<Problem, V>* into;
  template <class M, class Y>
  void operator()(const M& crossed, const Y& y, const V& t) const {
    (*into)(crossed, y, t);
  }
};

template <class Problem, class Table, class R>
void run_section_lanes(EnsembleTaskSource& src) {
  using V = stdx::native_simd<R>;
  using System = EnsembleSystem<Problem, V>;
  constexpr int L = static_cast<int>(V::size());
  constexpr int D = System::D;
  const EnsembleSetup& s = src.setup;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const V dt(static_cast<R>(s.dt));
  const std::int64_t n = s.trajectories;

  std::int64_t first = 0, count = 0, finished = 0;
  while (src.next_block(L, first, count, finished)) {
    LaneBlock<Problem, V> b(s, data, first, count);
    const auto field = lane_field<Problem>(
        precision_field<Problem, V>(data, b.k, s.precision == Precision::mixed));
    LaneCrossings<Problem, V> crossings{src, first, count};
    const auto watch = watch_section<Problem, Table, V, OutOfLineLocate>(field, s.section,
                                                        RecordInto<Problem, V>{&crossings});
    integrate_watched_trajectory<Problem, Table, V>(
        b.st, field, dt, s.steps, s.samples,
        [&](int sample, const typename System::State& now) {
          if constexpr (Problem::has_energy) {
            float* out = src.drift + static_cast<std::int64_t>(sample - 1) * n + first;
            for (int l = 0; l < count; ++l) out[l] = static_cast<float>(b.drift(data, l, now));
          }
        },
        watch);
    crossings.finish();
    b.write_final(src.final_state + first * D, count);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

// The same with each lane's own step size and error control (ensemble/adaptive_trajectory.hpp).
template <class Problem, class Table, class R>
void run_adaptive_section_lanes(EnsembleTaskSource& src) {
  using V = stdx::native_simd<R>;
  using System = EnsembleSystem<Problem, V>;
  constexpr int L = static_cast<int>(V::size());
  constexpr int D = System::D;
  const EnsembleSetup& s = src.setup;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const V h0(static_cast<R>(s.dt)), t_end(static_cast<R>(ensemble_end_time(s)));
  const V tol(static_cast<R>(s.tolerance));
  const std::int64_t n = s.trajectories;

  std::int64_t first = 0, count = 0, finished = 0;
  while (src.next_block(L, first, count, finished)) {
    LaneBlock<Problem, V> b(s, data, first, count);
    const auto field = lane_field<Problem>(
        precision_field<Problem, V>(data, b.k, s.precision == Precision::mixed));
    const auto put_drift = [&](int l, int sample, double value) {
      src.drift[static_cast<std::int64_t>(sample - 1) * n + first + l] = static_cast<float>(value);
    };
    LaneCrossings<Problem, V> crossings{src, first, count};
    const auto watch = watch_section<Problem, Table, V, OutOfLineLocate>(field, s.section,
                                                        RecordInto<Problem, V>{&crossings});
    const AdaptiveTally<V> tally = integrate_adaptive_trajectory<Problem, Table, V>(
        b.st, field, h0, t_end, s.samples, tol,
        [&](const typename V::mask_type& landed, const V& sample, const V&,
            const typename System::State& now) {
          if constexpr (Problem::has_energy)
            for (int l = 0; l < count; ++l)
              if (landed[l]) put_drift(l, static_cast<int>(sample[l]), b.drift(data, l, now));
        },
        watch);
    crossings.finish();
    b.write_final(src.final_state + first * D, count);
    write_tally<Problem>(src, first, count, tally, put_drift);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

template <class Problem>
void run_section_lanes_of(EnsembleTaskSource& src) {
  for_run_lanes<Problem>(src.setup, [&]<class Table, class R, bool Adaptive>() {
    if constexpr (Adaptive)
      run_adaptive_section_lanes<Problem, Table, R>(src);
    else
      run_section_lanes<Problem, Table, R>(src);
  });
}

}  // namespace

template <int Problem>
void run_section_problem(EnsembleTaskSource& src) {
  run_section_lanes_of<EnsembleProblems::at<Problem>>(src);
}

template void run_section_problem<ORRERY_ENSEMBLE_PROBLEM>(EnsembleTaskSource&);

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
