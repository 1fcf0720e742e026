// SPDX-License-Identifier: MIT
// Launching the chaos kernel of a setup's problem: the kernels of each problem are compiled in
// their own file (chaos_kernel.cuh, instantiated per problem by CMake), chosen here by index.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "device/cuda/cuda_check.hpp"
#include "ensemble/cuda/chaos_kernel.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::cuda {

namespace {

using Pick = ChaosLaunchFn (*)(ChaosKernel, int, bool);

template <int... P>
constexpr std::array<Pick, sizeof...(P)> picks(std::integer_sequence<int, P...>) {
  return {&chaos_kernel_for<P>...};
}
constexpr auto kPicks = picks(std::make_integer_sequence<int, kEnsembleProblemCount>{});

}  // namespace

void launch_chaos_kernel(const ChaosSetup& setup, const ChaosKernelArgs& args,
                         cudaStream_t stream) {
  const ChaosLaunchFn launch = kPicks.at(static_cast<std::size_t>(setup.ensemble.problem))(
      setup.kernel, setup.ensemble.integrator, !setup.exact_gpu);
  if (!launch)  // check_chaos_setup refuses every such setup before work
    throw RunError("no CUDA chaos kernel for this problem, indicator and integrator");
  const auto blocks =
      static_cast<unsigned>((args.n + kChaosThreadsPerBlock - 1) / kChaosThreadsPerBlock);
  launch(args, setup.ensemble.data, blocks, stream);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the chaos kernel");
}

}  // namespace orrery::cuda
