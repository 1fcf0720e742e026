// SPDX-License-Identifier: MIT
// Indicators of chaos on a GPU: one thread integrates one trajectory and its deviation vectors
// with the shared ORRERY_HD agent (chaos_trajectory, ensemble/chaos/chaos_trajectory.hpp), the
// one the CPU chaos lanes run, in fp64 from the first step to the last; the field and the
// indicator's logarithm are made of correctly rounded operations only (core/lane_log.hpp), so
// the values are the CPU's bit for bit. Starts and results are structure of arrays (coalesced).
//
// Included by the files CMake generates (src/CMakeLists.txt), one per problem, each of which
// instantiates chaos_kernel_for<P>, so that they compile in parallel.
#pragma once

#include <cuda_runtime.h>

#include "ensemble/cuda/chaos_kernel.hpp"
#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_trajectory.hpp"

namespace orrery::cuda {

namespace {

template <class Problem, class Table, ChaosKernel Kernel>
__global__ void __launch_bounds__(kChaosThreadsPerBlock)
    chaos_kernel(const ChaosKernelArgs a, const __grid_constant__ typename Problem::Data data) {
  using System = EnsembleSystem<Problem, double>;
  constexpr int D = System::D, P = System::P;
  using Indicator = typename ChaosKernelIndicator<Kernel, double, D>::type;
  using TS = TangentSystem<Problem, double, Indicator::vectors>;
  constexpr int O = Indicator::outputs;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.n) return;

  double row[D + P];
  if (a.starts.rows)
    start_row(a.starts, D + P, i, a.n, row);
  else
    start_row(a.starts, D + P, a.first + i, a.total, row);
  typename TS::State st;
  for (int w = 0; w < D; ++w) TS::Base::word(st, w) = Dual<double, Indicator::vectors>(row[w]);
  double k[P > 0 ? P : 1] = {};
  for (int w = 0; w < P; ++w) k[w] = row[D + w];
  const auto field = TS::field(data, k);
  Indicator indicator;
  indicator.configure(a.options);
  chaos_trajectory<Problem, Table>(st, field, a.dt, a.steps, a.every, a.samples, indicator,
                                   [&](int sample, const double (&out)[O]) {
                                     for (int o = 0; o < O; ++o)
                                       a.values[(static_cast<std::int64_t>(sample - 1) * O + o) *
                                                    a.n +
                                                i] = out[o];
                                   });
  for (int w = 0; w < D; ++w) a.final_state[w * a.n + i] = TS::value(st, w);
}

template <class Problem, class Table, ChaosKernel Kernel>
void launch(const ChaosKernelArgs& a, const void* data, unsigned blocks, cudaStream_t stream) {
  const typename Problem::Data none{};
  const auto& d = data ? *static_cast<const typename Problem::Data*>(data) : none;
  chaos_kernel<Problem, Table, Kernel><<<blocks, kChaosThreadsPerBlock, 0, stream>>>(a, d);
}

template <class Problem, ChaosKernel Kernel>
ChaosLaunchFn pick(int integrator) {
  const std::string_view name =
      ensemble_integrators()[static_cast<std::size_t>(integrator)].name;
  ChaosLaunchFn f = nullptr;
  [&]<class... Tables>(TableList<Tables...>) {
    (void)((name == Tables::name ? ([&] {
       if constexpr (integrator_applies<Problem, Tables> && chaos_kernel_applies<Problem, Kernel>)
         f = &launch<Problem, Tables, Kernel>;
     }(),
                                    true)
                                 : false) ||
           ...);
  }(ChaosIntegrators{});
  return f;
}

}  // namespace

template <int P>
ChaosLaunchFn chaos_kernel_for(ChaosKernel kernel, int integrator) {
  using Problem = EnsembleProblems::at<P>;
  switch (kernel) {
    case ChaosKernel::growth:
      return pick<Problem, ChaosKernel::growth>(integrator);
    case ChaosKernel::sali:
      return pick<Problem, ChaosKernel::sali>(integrator);
    case ChaosKernel::spectrum:
    case ChaosKernel::gali:  // the spectrum's vectors, kept apart (a.options.volumes)
      return pick<Problem, ChaosKernel::spectrum>(integrator);
  }
  return nullptr;
}

}  // namespace orrery::cuda
