// SPDX-License-Identifier: MIT
// SALI with double-double deviation vectors on the CPU (ChaosSetup::double_double_vectors): one
// trajectory per thread at a time through the shared agent (chaos_trajectory), the state and
// its step in fp64 with the bits of the plain run, the two vectors' words DoubleDouble<double>
// (core/dual.hpp). Compiled once per instruction set (its fused multiply-adds one instruction
// where the set has them) for the problems and integrators of chaos_double_double_compiled
// (ensemble/chaos/chaos_catalogue.hpp): the derivative arithmetic is ten times the fp64 step's
// code, so the list is short and the lanes are scalar, not SIMD.
#include <cstdint>

#include "ensemble/cpu/chaos_task_source.hpp"
#include "ensemble/cpu/lane_block.hpp"
#include "orrery/core/double_double_fp64.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_trajectory.hpp"

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

template <class Problem, class Table>
void run_double_double_sali(ChaosTaskSource& src) {
  using W = DoubleDouble<double>;
  using System = EnsembleSystem<Problem, double>;
  constexpr int D = System::D, P = System::P;
  using Indicator = SaliIndicator<W, D>;
  using TS = TangentSystem<Problem, double, Indicator::vectors, W>;
  const EnsembleSetup& s = src.chaos.ensemble;
  const typename Problem::Data& data = problem_data<Problem>(s);
  const std::int64_t n = s.trajectories;
  constexpr int kBlock = 8;  // trajectories a thread takes at a time (its progress is reported so)

  std::int64_t first = 0, count = 0, finished = 0;
  while (src.next_block(kBlock, first, count, finished)) {
    for (std::int64_t i = first; i < first + count; ++i) {
      double row[kEnsembleMaxWords];
      start_row(s.starts, D + P, i, n, row);
      typename TS::State st;
      for (int w = 0; w < D; ++w) TS::Base::word(st, w) = typename TS::E(row[w]);
      double k[P > 0 ? P : 1] = {};
      for (int w = 0; w < P; ++w) k[w] = row[D + w];
      const auto field = lane_field<Problem>(TS::field(data, k));
      Indicator indicator;
      indicator.configure(chaos_indicator_options(src.chaos));
      chaos_trajectory<Problem, Table>(
          st, field, s.dt, s.steps, src.chaos.every, src.chaos.samples, indicator,
          [&](int sample, const W (&out)[Indicator::outputs]) {
            for (int o = 0; o < Indicator::outputs; ++o)
              src.values[(static_cast<std::int64_t>(sample - 1) * Indicator::outputs + o) * n + i] =
                  out[o].hi;
          });
      for (int w = 0; w < D; ++w) src.tasks.final_state[i * D + w] = TS::value(st, w);
    }
    finished += count;
  }
  src.next_block(kBlock, first, count, finished);  // hands in the last block
}

template <class Problem>
void run_problem(ChaosTaskSource& src) {
  const std::string_view integrator =
      ensemble_integrators()[static_cast<std::size_t>(src.chaos.ensemble.integrator)].name;
  [&]<class... Tables>(TableList<Tables...>) {
    (void)((integrator == Tables::name
                ? ([&] {
                     if constexpr (chaos_double_double_compiled<Problem, Tables>)
                       run_double_double_sali<Problem, Tables>(src);
                   }(),
                   true)
                : false) ||
           ...);
  }(ChaosIntegrators{});
}

}  // namespace

template <int Problem>
void run_chaos_double_double_problem(ChaosTaskSource& src) {
  run_problem<EnsembleProblems::at<Problem>>(src);
}

static_assert(kEnsembleProblemCount == 7, "instantiate every problem below");
template void run_chaos_double_double_problem<0>(ChaosTaskSource&);
template void run_chaos_double_double_problem<1>(ChaosTaskSource&);
template void run_chaos_double_double_problem<2>(ChaosTaskSource&);
template void run_chaos_double_double_problem<3>(ChaosTaskSource&);
template void run_chaos_double_double_problem<4>(ChaosTaskSource&);
template void run_chaos_double_double_problem<5>(ChaosTaskSource&);
template void run_chaos_double_double_problem<6>(ChaosTaskSource&);

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
