// SPDX-License-Identifier: MIT
// Indicators of chaos on a GPU: one thread integrates one trajectory and its deviation vectors
// with the shared ORRERY_HD agent (chaos_trajectory, ensemble/chaos/chaos_trajectory.hpp), the
// one the CPU chaos lanes run, in fp64 from the first step to the last; the field and the
// indicator's logarithm are made of correctly rounded operations only (core/lane_log.hpp), so
// the values are the CPU's bit for bit. With Fast, a problem with a pair factor (three bodies)
// takes the GPU's fast 1/r³ (physics/inverse_cube.hpp, as the divergence map's kernels do): close
// to the CPU's values, not equal. Starts and results are structure of arrays (coalesced).
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

template <class Problem, class Table, ChaosKernel Kernel, bool Fast>
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
  share_start_row(a.starts, D + P, i, a.first, a.n, a.total, row);
  typename TS::State st;
  for (int w = 0; w < D; ++w) TS::Base::word(st, w) = Dual<double, Indicator::vectors>(row[w]);
  double k[P > 0 ? P : 1] = {};
  for (int w = 0; w < P; ++w) k[w] = row[D + w];
  const auto field = [&] {
    if constexpr (Fast)
      return TS::fast_field(data, k);
    else
      return TS::field(data, k);
  }();
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

template <class Problem, class Table, ChaosKernel Kernel, bool Fast>
void launch(const ChaosKernelArgs& a, const void* data, unsigned blocks, cudaStream_t stream) {
  const typename Problem::Data none{};
  const auto& d = data ? *static_cast<const typename Problem::Data*>(data) : none;
  chaos_kernel<Problem, Table, Kernel, Fast><<<blocks, kChaosThreadsPerBlock, 0, stream>>>(a, d);
}

// A fast kernel only where the problem has a pair factor: elsewhere the one kernel serves both.
template <class Problem, ChaosKernel Kernel>
ChaosLaunchFn pick(int integrator, bool fast) {
  const std::string_view name =
      ensemble_integrators()[static_cast<std::size_t>(integrator)].name;
  ChaosLaunchFn f = nullptr;
  [&]<class... Tables>(TableList<Tables...>) {
    (void)((name == Tables::name ? ([&] {
       if constexpr (integrator_applies<Problem, Tables> && chaos_kernel_applies<Problem, Kernel>)
         f = fast && ensemble_pair_factor_policies<Problem>
                 ? &launch<Problem, Tables, Kernel, ensemble_pair_factor_policies<Problem>>
                 : &launch<Problem, Tables, Kernel, false>;
     }(),
                                    true)
                                 : false) ||
           ...);
  }(ChaosIntegrators{});
  return f;
}

}  // namespace

template <int P>
ChaosLaunchFn chaos_kernel_for(ChaosKernel kernel, int integrator, bool fast) {
  using Problem = EnsembleProblems::at<P>;
  switch (kernel) {
    case ChaosKernel::growth:
      return pick<Problem, ChaosKernel::growth>(integrator, fast);
    case ChaosKernel::sali:
      return pick<Problem, ChaosKernel::sali>(integrator, fast);
    case ChaosKernel::spectrum:
      return pick<Problem, ChaosKernel::spectrum>(integrator, fast);
    case ChaosKernel::gali:  // the spectrum's vectors, kept apart (a.options.volumes)
      return pick<Problem, ChaosKernel::spectrum>(integrator, fast);
  }
  return nullptr;
}

}  // namespace orrery::cuda
