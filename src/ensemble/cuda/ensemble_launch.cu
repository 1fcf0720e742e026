// SPDX-License-Identifier: MIT
// Launching the ensemble kernel of a setup's problem: the kernels of each problem are compiled in
// their own file (ensemble_kernel.cuh, instantiated per problem by CMake), chosen here by index.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "device/cuda/cuda_check.hpp"
#include "ensemble/cuda/ensemble_kernel.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery::cuda {

namespace {

using Pick = EnsembleLaunchFn (*)(int, bool);

// Each problem's kernels in fp64, fp32 and mixed.
template <bool Sectioned, int... P>
constexpr std::array<std::array<Pick, 3>, sizeof...(P)> picks(std::integer_sequence<int, P...>) {
  return {{{&ensemble_kernel_for<P, Sectioned, Precision::fp64>,
            &ensemble_kernel_for<P, Sectioned, Precision::fp32>,
            &ensemble_kernel_for<P, Sectioned, Precision::mixed>}...}};
}
constexpr auto kPicks = picks<false>(std::make_integer_sequence<int, kEnsembleProblemCount>{});
constexpr auto kSectionPicks =
    picks<true>(std::make_integer_sequence<int, kEnsembleProblemCount>{});

}  // namespace

void launch_ensemble_kernel(const EnsembleSetup& setup, const EnsembleKernelArgs& args,
                            cudaStream_t stream) {
  const auto& picks = setup.section.word >= 0 ? kSectionPicks : kPicks;
  const std::size_t mode = setup.precision == Precision::fp32 ? 1 : setup.precision == Precision::mixed ? 2 : 0;
  const EnsembleLaunchFn launch = picks.at(static_cast<std::size_t>(setup.problem))
                                      .at(mode)(setup.integrator, setup.tolerance > 0);
  const auto blocks = static_cast<unsigned>((args.n + kEnsembleThreadsPerBlock - 1) /
                                            kEnsembleThreadsPerBlock);
  launch(args, setup.data, blocks, stream);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the ensemble kernel");
}

}  // namespace orrery::cuda
