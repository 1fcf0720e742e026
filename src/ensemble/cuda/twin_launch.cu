// SPDX-License-Identifier: MIT
// Launching the divergence kernel of the setup's map integrator: the kernels of each integrator
// are compiled in their own file (twin_kernel.cuh, instantiated per integrator by CMake), and
// chosen here by index.
#include <cuda_runtime.h>

#include <array>
#include <string>
#include <utility>

#include "device/cuda/cuda_check.hpp"
#include "ensemble/cuda/map_schedule_policy.hpp"
#include "ensemble/cuda/twin_kernel.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/physics/inverse_cube.hpp"

namespace orrery::cuda {

namespace {

using Pick = TwinKernelFn (*)(Precision, int, bool);

template <int... I>
constexpr std::array<Pick, sizeof...(I)> picks(std::integer_sequence<int, I...>) {
  return {&twin_kernel_for<I>...};
}
constexpr auto kPicks = picks(std::make_integer_sequence<int, kMapIntegratorCount>{});

// Words of one parked trajectory for each integrator; they do not depend on the lane type or
// the varied body.
template <int... I>
constexpr std::array<int, sizeof...(I)> parked_words(std::integer_sequence<int, I...>) {
  return {TwinDivergence<map_integrator_t<I>, double, InverseCubeExact, 0>::parked_words...};
}
constexpr auto kParkedWords =
    parked_words(std::make_integer_sequence<int, kMapIntegratorCount>{});

TwinKernelFn pick(const DivergenceSetup& setup, Precision precision, bool exact) {
  return kPicks.at(static_cast<std::size_t>(setup.integrator))(precision, setup.body, exact);
}

}  // namespace

int twin_parked_bytes(const DivergenceSetup& setup, Precision precision) {
  const int word = precision == Precision::fp32 ? static_cast<int>(sizeof(float))
                                                : static_cast<int>(sizeof(double));
  return kParkedWords.at(static_cast<std::size_t>(setup.integrator)) * word;
}

TwinLaunch twin_launch_shape(const DivergenceSetup& setup, Precision precision, bool exact,
                             int device) {
  int sms = 0, per_sm = 0;
  const std::string where = "device " + std::to_string(device);
  ORRERY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), where);
  ORRERY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                        &per_sm, pick(setup, precision, exact), MapPolicy::threads_per_block, 0),
                    where);
  return {sms * (per_sm > 0 ? per_sm : 1), MapPolicy::threads_per_block};
}

void launch_twin_kernel(const DivergenceSetup& setup, Precision precision, bool exact,
                        const TwinFeed& feed, const TwinLaunch& shape, cudaStream_t stream) {
  pick(setup, precision, exact)<<<shape.blocks, shape.threads_per_block, 0, stream>>>(setup, feed);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the divergence kernel");
}

}  // namespace orrery::cuda
