// SPDX-License-Identifier: MIT
// Host-side view of the CUDA chaos kernel: what one launch works from and how it is started.
// (The kernel itself is in chaos_kernel.cuh, compiled once per problem; this header holds no
// device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/ensemble/chaos/chaos_run.hpp"

namespace orrery::cuda {

// Trajectories [first, first + n) of `total`: start rows, when given, are the launch's own n rows
// in device memory; a sweep is computed from the global index. Results in device memory,
// structure of arrays: value o of trajectory i at sample s in values[((s − 1)·outputs + o)·n + i],
// final_state[w·n + i].
struct ChaosKernelArgs {
  EnsembleStarts starts;
  std::int64_t first = 0, n = 0, total = 0;
  double dt = 0;
  std::int64_t steps = 0, every = 1;
  int samples = 1;
  double* values = nullptr;
  double* final_state = nullptr;
  ChaosIndicatorOptions options;  // chaos_indicator_options(setup)
};

using ChaosLaunchFn = void (*)(const ChaosKernelArgs&, const void* data, unsigned blocks,
                               cudaStream_t);

// The kernel of problem P for an indicator kernel and a chaos integrator (an index into
// EnsembleIntegrators that ChaosIntegrators holds; null where none applies), with the GPU's fast
// pair factor where `fast` and the problem has one; compiled in its own file per problem
// (chaos_kernel.cuh, instantiated by CMake).
template <int P>
ChaosLaunchFn chaos_kernel_for(ChaosKernel kernel, int integrator, bool fast);

inline constexpr int kChaosThreadsPerBlock = 128;

// Enqueues the kernel of the setup's problem, indicator kernel and integrator on `stream`;
// checks the launch.
void launch_chaos_kernel(const ChaosSetup& setup, const ChaosKernelArgs& args,
                         cudaStream_t stream);

}  // namespace orrery::cuda
