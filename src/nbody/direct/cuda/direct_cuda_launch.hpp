// SPDX-License-Identifier: MIT
// The CUDA direct engine's kernels as the engine calls them (direct_cuda_kernel.cu). No fmt
// here: the .cu file includes it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace orrery::cuda {

inline constexpr int kDirectTile = 256;       // targets per block = sources per shared-memory tile
inline constexpr int kTargetsPerThread = 2;
inline constexpr int kDirectThreads = kDirectTile / kTargetsPerThread;

// One device's share of an evaluation: targets [begin, end) of n bodies against all sources.
template <class Real>
struct DirectPass {
  const Real *x, *y, *z, *mass;  // all n bodies on this device
  const Real* half_eps2;         // ε_i²/2 per body, or nullptr for the global one
  Real global_eps2;              // ε² when half_eps2 is nullptr
  Real g;
  std::size_t n, begin, end;     // begin a multiple of kDirectTile
  Real *ax, *ay, *az, *phi;      // results for targets [begin, end), indexed from begin; phi may be null
  Real* partial;                 // 4·slices·(end − begin) values when slices > 1
  int slices;                    // source slices, each summed by its own blocks
};

// Enqueues the pass on `stream` (the device current).
template <class Real>
void launch_direct_pass(const DirectPass<Real>& pass, cudaStream_t stream);

// Source slices that fill a device of `sms` multiprocessors for `targets` targets of n sources.
int direct_slices(std::size_t targets, std::size_t n, int sms);

}  // namespace orrery::cuda
