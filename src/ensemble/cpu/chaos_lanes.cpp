// SPDX-License-Identifier: MIT
// The CPU chaos lanes, compiled once per instruction set (ORRERY_CPU_KERNEL, with CMake's -march
// for it) for every problem: one SIMD lane integrates one trajectory with its deviation vectors
// through the shared ORRERY_HD agent (chaos_trajectory, ensemble/chaos/chaos_trajectory.hpp), the
// one the CUDA kernel runs; a thread takes a vector's worth of trajectories at a time (two
// vectors' worth where chaos_lane_group says). fp64 only: an indicator is a sum of logarithms
// over thousands of intervals.
#include <cstdint>
#include <type_traits>

#include "ensemble/cpu/chaos_task_source.hpp"
#include "ensemble/cpu/lane_block.hpp"
#include "orrery/core/simd_group.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_trajectory.hpp"

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// How many SIMD vectors of trajectories a thread advances together (core/simd_group.hpp). A
// splitting method's step on a small inline field with one or two deviation vectors is a chain
// of dependent operations (Hénon–Heiles: each waits for the one before), so two independent
// vectors' chains keep the fused multiply-add units busy: 1.8× the trajectory-steps a second of
// one vector for the Lyapunov exponent, 1.3× for SALI (bench/lyapunov_cpu_bench.cpp). The
// others are not grouped, each group doubling the code compiled: a spectrum's D vectors, a
// Runge–Kutta stage's sums and a large field already hold independent work (the spectrum of
// Hénon–Heiles, the Lorenz system with rk4 gained nothing or lost).
template <class Problem, class Table, ChaosKernel Kernel>
inline constexpr int chaos_lane_group = [] {
  constexpr bool out_of_line = [] {
    if constexpr (requires { Problem::field_out_of_line; })
      return Problem::field_out_of_line;
    else
      return false;
  }();
  return (Kernel == ChaosKernel::growth || Kernel == ChaosKernel::sali) &&
                 Table::family == IntegratorFamily::splitting && Problem::second_order &&
                 !out_of_line && EnsembleSystem<Problem, double>::D <= 6
             ? 2
             : 1;
}();

template <class Problem, class Table, ChaosKernel Kernel>
void run_chaos_lanes(ChaosTaskSource& src) {
  using Native = stdx::native_simd<double>;
  constexpr int G = chaos_lane_group<Problem, Table, Kernel>;
  using V = std::conditional_t<G == 1, Native, SimdGroup<Native, G>>;
  using System = EnsembleSystem<Problem, V>;
  constexpr int L = static_cast<int>(V::size());
  constexpr int D = System::D, P = System::P;
  using Indicator = typename ChaosKernelIndicator<Kernel, V, D>::type;
  using TS = TangentSystem<Problem, V, Indicator::vectors>;
  constexpr int O = Indicator::outputs;
  const EnsembleSetup& s = src.chaos.ensemble;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const V dt(s.dt);
  const std::int64_t n = s.trajectories;

  std::int64_t first = 0, count = 0, finished = 0;
  while (src.next_block(L, first, count, finished)) {
    LaneBlock<Problem, V> b(s, data, first, count);
    typename TS::State st;
    for (int w = 0; w < D; ++w) TS::Base::word(st, w) = Dual<V, Indicator::vectors>(System::word(b.st, w));
    V k[P > 0 ? P : 1] = {};
    for (int w = 0; w < P; ++w) k[w] = b.k.value[w];
    const auto field = lane_field<Problem>(TS::field(data, k));
    Indicator indicator;
    indicator.configure(chaos_indicator_options(src.chaos));
    chaos_trajectory<Problem, Table>(st, field, dt, s.steps, src.chaos.every, src.chaos.samples,
                                     indicator, [&](int sample, const V (&out)[O]) {
                                       for (int o = 0; o < O; ++o) {
                                         double* to = src.values +
                                                      (static_cast<std::int64_t>(sample - 1) * O + o) * n +
                                                      first;
                                         for (int l = 0; l < count; ++l) to[l] = out[o][l];
                                       }
                                     });
    for (int w = 0; w < D; ++w) System::word(b.st, w) = TS::value(st, w);
    b.write_final(src.tasks.final_state + first * D, count);
    finished += count;
  }
  src.next_block(L, first, count, finished);  // hands in the last block
}

// A group's lanes flattened: every call its step makes is inlined (GCC otherwise calls a table
// operation out of line once the grouped step grows, storing and reloading the state around each
// call: a fifth of the group's gain); a field a problem keeps out of line stays so. Only there:
// flattening every kernel (three bodies with dop853) would lengthen this file's compile.
template <class Problem, class Table, ChaosKernel Kernel>
[[gnu::flatten]] void run_grouped_lanes(ChaosTaskSource& src) {
  run_chaos_lanes<Problem, Table, Kernel>(src);
}

template <class Problem, ChaosKernel Kernel>
void run_kernel(ChaosTaskSource& src, std::string_view integrator) {
  [&]<class... Tables>(TableList<Tables...>) {
    (void)((integrator == Tables::name
                ? ([&] {
                     if constexpr (integrator_applies<Problem, Tables>) {
                       if constexpr (chaos_lane_group<Problem, Tables, Kernel> > 1)
                         run_grouped_lanes<Problem, Tables, Kernel>(src);
                       else
                         run_chaos_lanes<Problem, Tables, Kernel>(src);
                     }
                   }(),
                   true)
                : false) ||
           ...);
  }(ChaosIntegrators{});
}

template <class Problem>
void run_problem(ChaosTaskSource& src) {
  const std::string_view integrator =
      ensemble_integrators()[static_cast<std::size_t>(src.chaos.ensemble.integrator)].name;
  switch (src.chaos.kernel) {
    case ChaosKernel::growth:
      return run_kernel<Problem, ChaosKernel::growth>(src, integrator);
    case ChaosKernel::sali:
      return run_kernel<Problem, ChaosKernel::sali>(src, integrator);
    case ChaosKernel::spectrum:
    case ChaosKernel::gali:  // the spectrum's vectors, kept apart (ChaosIndicatorOptions)
      if constexpr (chaos_kernel_applies<Problem, ChaosKernel::spectrum>)
        return run_kernel<Problem, ChaosKernel::spectrum>(src, integrator);
      return;
  }
}

}  // namespace

template <int Problem>
void run_chaos_problem(ChaosTaskSource& src) {
  run_problem<EnsembleProblems::at<Problem>>(src);
}

static_assert(kEnsembleProblemCount == 7, "instantiate the lanes of every problem below");
template void run_chaos_problem<0>(ChaosTaskSource&);
template void run_chaos_problem<1>(ChaosTaskSource&);
template void run_chaos_problem<2>(ChaosTaskSource&);
template void run_chaos_problem<3>(ChaosTaskSource&);
template void run_chaos_problem<4>(ChaosTaskSource&);
template void run_chaos_problem<5>(ChaosTaskSource&);
template void run_chaos_problem<6>(ChaosTaskSource&);

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
