// SPDX-License-Identifier: MIT
// The CPU ensemble kernel, compiled once per instruction set and problem (ORRERY_CPU_KERNEL names
// the variant, with CMake's -march for it; ORRERY_ENSEMBLE_PROBLEM the index into
// ensemble/ensemble_catalogue.hpp). One SIMD lane integrates one trajectory with the shared
// ORRERY_HD agent (integrate_trajectory, ensemble/ensemble_problem.hpp; with a tolerance
// integrate_adaptive_trajectory, ensemble/adaptive_trajectory.hpp), the same one the CUDA kernel
// runs; a thread takes a vector's worth of trajectories at a time.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "ensemble/cpu/lane_block.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

#if !defined(ORRERY_CPU_KERNEL) || !defined(ORRERY_ENSEMBLE_PROBLEM)
#error "compile with -DORRERY_CPU_KERNEL=<isa> -DORRERY_ENSEMBLE_PROBLEM=<index>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// R = double runs fp64 or mixed, R = float fp32.
template <class Problem, class Table, class R>
void run_lanes(EnsembleTaskSource& src) {
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
    integrate_trajectory<Problem, Table, V>(
        b.st, field, dt, s.steps, s.samples, [&](int sample, const typename System::State& now) {
          if constexpr (Problem::has_energy) {
            float* out = src.drift + static_cast<std::int64_t>(sample - 1) * n + first;
            for (int l = 0; l < count; ++l) out[l] = static_cast<float>(b.drift(data, l, now));
          }
        });
    b.write_final(src.final_state + first * D, count);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

// The same with each lane's own step size and error control (ensemble/adaptive_trajectory.hpp).
template <class Problem, class Table, class R>
void run_adaptive_lanes(EnsembleTaskSource& src) {
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
    const AdaptiveTally<V> tally = integrate_adaptive_trajectory<Problem, Table, V>(
        b.st, field, h0, t_end, s.samples, tol,
        [&](const typename V::mask_type& landed, const V& sample, const V&,
            const typename System::State& now) {
          if constexpr (Problem::has_energy)
            for (int l = 0; l < count; ++l)
              if (landed[l]) put_drift(l, static_cast<int>(sample[l]), b.drift(data, l, now));
        });
    b.write_final(src.final_state + first * D, count);
    write_tally<Problem>(src, first, count, tally, put_drift);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

template <class Problem>
void run_problem(EnsembleTaskSource& src) {
  for_run_lanes<Problem>(src.setup, [&]<class Table, class R, bool Adaptive>() {
    if constexpr (Adaptive)
      run_adaptive_lanes<Problem, Table, R>(src);
    else
      run_lanes<Problem, Table, R>(src);
  });
}

}  // namespace

template <int Problem>
void run_ensemble_problem(EnsembleTaskSource& src) {
  run_problem<EnsembleProblems::at<Problem>>(src);
}

template void run_ensemble_problem<ORRERY_ENSEMBLE_PROBLEM>(EnsembleTaskSource&);

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
