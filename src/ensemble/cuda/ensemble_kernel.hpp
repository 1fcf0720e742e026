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
// With a tolerance (adaptive kernels): dt is the first trial step, t_end the end, and each
// trajectory's steps accepted and rejected and its TrajectoryStatus go to the last three arrays.
struct EnsembleKernelArgs {
  EnsembleStarts starts;
  std::int64_t first = 0, n = 0, total = 0;
  double dt = 0;
  std::int64_t steps = 0;
  int samples = 1;
  void* final_state = nullptr;
  float* drift = nullptr;
  double tolerance = 0, t_end = 0;
  std::uint32_t* steps_accepted = nullptr;
  std::uint32_t* steps_rejected = nullptr;
  std::uint8_t* status = nullptr;
  // With a section (the sectioned kernels): each trajectory's crossings, and its first K as rows
  // of the state words then the time, section_points[((i·K) + c)·(D + 1) + w] in double.
  EnsembleSection section;
  std::int64_t* section_count = nullptr;
  double* section_points = nullptr;
};

// Enqueues `blocks` blocks of the kernel with the problem's Data (EnsembleSetup::data, null:
// Data{}) as its argument.
using EnsembleLaunchFn = void (*)(const EnsembleKernelArgs&, const void* data, unsigned blocks,
                                  cudaStream_t);

// The kernel of problem P for an integrator in precision Mode (fp64, fp32, mixed), with step
// control (`adaptive`, embedded pairs only) or fixed steps, watching a surface of section or
// not (Sectioned: separate kernels, so the registers of a run without one are what they were);
// compiled in its own file per problem, Sectioned and Mode (ensemble_kernel.cuh, instantiated by
// CMake), so that no one file holds more than a sixth of a problem's kernels.
template <int P, bool Sectioned, Precision Mode>
EnsembleLaunchFn ensemble_kernel_for(int integrator, bool adaptive);

inline constexpr int kEnsembleThreadsPerBlock = 256;

// Enqueues the kernel of the setup's problem, integrator and precision on `stream`; checks the
// launch.
void launch_ensemble_kernel(const EnsembleSetup& setup, const EnsembleKernelArgs& args,
                            cudaStream_t stream);

}  // namespace orrery::cuda
