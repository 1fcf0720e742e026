// SPDX-License-Identifier: MIT
// Host-side view of the CUDA ensemble kernel: what one launch works from and how it is started.
// (The kernel itself is in ensemble_kernel.cuh, compiled once per problem; this header holds no
// device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery::cuda {

// Trajectories [first, first + n) of `total`. Start rows, when given, are the launch's own n
// rows in device memory; a sweep is computed from the global index. Results in device memory,
// structure of arrays: final_state[w·n + i] in the precision's Real, drift[(k − 1)·n + i].
struct EnsembleKernelArgs {
  EnsembleStarts starts;
  std::int64_t first = 0, n = 0, total = 0;
  double dt = 0;
  std::int64_t steps = 0;
  int samples = 1;
  void* final_state = nullptr;
  float* drift = nullptr;
};

// Enqueues `blocks` blocks of the kernel with the problem's Data (EnsembleSetup::data, null:
// Data{}) as its argument.
using EnsembleLaunchFn = void (*)(const EnsembleKernelArgs&, const void* data, unsigned blocks,
                                  cudaStream_t);

// The kernel of problem P for an integrator and a precision (fp64, fp32, mixed), compiled in its
// own file per problem (ensemble_kernel.cuh, instantiated by CMake).
template <int P>
EnsembleLaunchFn ensemble_kernel_for(int integrator, Precision precision);

inline constexpr int kEnsembleThreadsPerBlock = 256;

// Enqueues the kernel of the setup's problem, integrator and precision on `stream`; checks the
// launch.
void launch_ensemble_kernel(const EnsembleSetup& setup, const EnsembleKernelArgs& args,
                            cudaStream_t stream);

}  // namespace orrery::cuda
