// SPDX-License-Identifier: MIT
// An ensemble on a GPU: one thread integrates one trajectory with the shared ORRERY_HD agent
// (integrate_trajectory, ensemble/ensemble_problem.hpp; with a tolerance
// integrate_adaptive_trajectory, ensemble/adaptive_trajectory.hpp), its state in registers from
// the first step to the last. At a fixed step every trajectory takes the same steps, so the warps stay converged and a
// plain launch of one thread per trajectory keeps every lane busy; starts and results are
// structure of arrays (coalesced), the energy drift at each sample is computed in fp64 whatever
// the precision of the state.
//
// Included by the files CMake generates (src/CMakeLists.txt), one per problem, sectioned or not,
// and precision, each of which instantiates ensemble_kernel_for<P, S, Mode>, so that they
// compile in parallel.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "ensemble/cuda/ensemble_kernel.hpp"
#include "ensemble/index_dispatch.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/section_crossing.hpp"

namespace orrery::cuda {

namespace {

// An empty instruction that defines x, so that what computed x stays before it: nvcc may not
// recompute x later (in a loop) from the values it came from.
__device__ __forceinline__ void keep_in_register(float& x) { asm volatile("" : "+f"(x)); }
__device__ __forceinline__ void keep_in_register(double& x) { asm volatile("" : "+d"(x)); }

// One trajectory a thread, at fixed steps or (Adaptive) with its own step size and error control
// (ensemble/adaptive_trajectory.hpp): trajectories of a sweep's neighbouring parameters take
// similar steps, so a warp's threads mostly loop together; a finished thread idles until its
// warp is done. The problem's Data is a kernel argument, read in place from the parameter bank
// (__grid_constant__: the field keeps its address without a copy to local memory).
// A crossing of the section found by one thread: counted, and kept in its slots while there are
// any. The slots are written with explicit global stores (__stcg): written as plain stores through
// the pointer, nvcc (CUDA 13, sm_90) emitted local stores at the slots' global addresses, an
// illegal address on the first crossing (compute-sanitizer: "Invalid __local__ write").
template <class Problem, class R>
struct ThreadCrossings {
  static constexpr int D = EnsembleSystem<Problem, R>::D;
  double* slots;  // this trajectory's K slots of D + 1 words
  int capacity;
  mutable std::int64_t found = 0;  // the watch is called as a const object
  __device__ void operator()(bool, const R (&y)[D], const R& t) const {
    if (found < capacity) {
      double* slot = slots + found * (D + 1);
      for (int w = 0; w < D; ++w) __stcg(slot + w, static_cast<double>(y[w]));
      __stcg(slot + D, static_cast<double>(t));
    }
    ++found;
  }
};

template <class Problem, class Table, class R, bool Mixed, bool Adaptive, bool Sectioned>
__global__ void __launch_bounds__(kEnsembleThreadsPerBlock)
    ensemble_kernel(const EnsembleKernelArgs a,
                    const __grid_constant__ typename Problem::Data data) {
  using System = EnsembleSystem<Problem, R>;
  constexpr int D = System::D, P = System::P;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.n) return;

  double row[D + P];
  share_start_row(a.starts, D + P, i, a.first, a.n, a.total, row);
  typename System::State st;
  typename System::Parameters k;
  for (int w = 0; w < D; ++w) System::word(st, w) = static_cast<R>(row[w]);
  for (int w = 0; w < P; ++w) k.value[w] = static_cast<R>(row[D + w]);
  // Held in registers from here: otherwise nvcc keeps the fp64 row and converts the parameters
  // again in every step (Lorenz fp32: two conversions a step, 6 % of tsit5's time on one H100).
  for (int w = 0; w < P; ++w) keep_in_register(k.value[w]);
  double e0 = 0;
  if constexpr (Problem::has_energy) e0 = Problem::energy(data, row + D, row);

  const auto field = ensemble_field<Problem, R, Mixed>(data, k);
  // The energy drift at sample k (1 … samples), in fp64 whatever the state's precision.
  const auto record = [&](int sample, const typename System::State& now) {
    if constexpr (Problem::has_energy) {
      double y[D];
      for (int w = 0; w < D; ++w) y[w] = static_cast<double>(System::word(now, w));
      a.drift[static_cast<std::int64_t>(sample - 1) * a.n + i] =
          static_cast<float>(relative_drift(Problem::energy(data, row + D, y), e0));
    }
  };
  // With a section: the watch over every step (ensemble/section_crossing.hpp), else none.
  double* const slots =
      Sectioned ? a.section_points + i * a.section.capacity * (D + 1) : nullptr;
  const auto watch = [&] {
    if constexpr (Sectioned)
      return watch_section<Problem, Table, R>(
          field, a.section, ThreadCrossings<Problem, R>{slots, a.section.capacity});
    else
      return NoStepWatch{};
  }();
  if constexpr (Adaptive) {
    const AdaptiveTally<R> tally = integrate_adaptive_trajectory<Problem, Table, R>(
        st, field, static_cast<R>(a.dt), static_cast<R>(a.t_end), a.samples,
        static_cast<R>(a.tolerance),
        [&](bool, R sample, R, const typename System::State& now) {
          record(static_cast<int>(sample), now);
        },
        watch);
    a.steps_accepted[i] = static_cast<std::uint32_t>(tally.accepted);
    a.steps_rejected[i] = static_cast<std::uint32_t>(tally.rejected);
    a.status[i] = static_cast<std::uint8_t>(tally.status);
    if constexpr (Problem::has_energy)  // the samples a failed trajectory never reached
      for (int s = static_cast<int>(tally.next_sample); s <= a.samples; ++s)
        a.drift[static_cast<std::int64_t>(s - 1) * a.n + i] = __int_as_float(0x7fc00000);
  } else if constexpr (Sectioned) {
    integrate_watched_trajectory<Problem, Table, R>(st, field, static_cast<R>(a.dt), a.steps,
                                                    a.samples, record, watch);
  } else {
    integrate_trajectory<Problem, Table, R>(st, field, static_cast<R>(a.dt), a.steps, a.samples,
                                            record);
  }
  if constexpr (Sectioned) {
    const std::int64_t found = watch.record.found;
    a.section_count[i] = found;
    for (std::int64_t c = found; c < a.section.capacity; ++c)
      for (int w = 0; w <= D; ++w)
        __stcg(slots + c * (D + 1) + w, __longlong_as_double(0x7ff8000000000000LL));
  }
  R* out = static_cast<R*>(a.final_state);
  for (int w = 0; w < D; ++w) out[w * a.n + i] = System::word(st, w);
}

template <class Problem, class Table, class R, bool Mixed, bool Adaptive, bool Sectioned>
void launch(const EnsembleKernelArgs& a, const void* data, unsigned blocks, cudaStream_t stream) {
  const typename Problem::Data none{};
  const auto& d = data ? *static_cast<const typename Problem::Data*>(data) : none;
  ensemble_kernel<Problem, Table, R, Mixed, Adaptive, Sectioned>
      <<<blocks, kEnsembleThreadsPerBlock, 0, stream>>>(a, d);
}

}  // namespace

template <int P, bool S, Precision Mode>
EnsembleLaunchFn ensemble_kernel_for(int integrator, bool adaptive) {
  using Problem = EnsembleProblems::at<P>;
  using R = std::conditional_t<Mode == Precision::fp32, float, double>;
  constexpr bool kMixed = Mode == Precision::mixed;
  return visit_index<kEnsembleIntegratorCount>(integrator, [&]<int I>() -> EnsembleLaunchFn {
    using Table = EnsembleIntegrators::at<I>;
    if constexpr (integrator_applies<Problem, Table>) {
      if constexpr (integrator_adapts<Table>)
        if (adaptive) return launch<Problem, Table, R, kMixed, true, S>;
      return launch<Problem, Table, R, kMixed, false, S>;
    } else {
      return nullptr;
    }
  });
}

}  // namespace orrery::cuda
