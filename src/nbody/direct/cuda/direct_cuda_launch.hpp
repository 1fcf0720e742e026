// SPDX-License-Identifier: MIT
// The CUDA direct engine's kernels as the engine calls them (direct_cuda_kernel.cu). No fmt
// here: the .cu file includes it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace orrery::cuda {

inline constexpr int kDirectTile = 256;  // targets per block = sources per shared-memory tile

// Targets each thread sums (a block has kDirectTile / that threads): 2, 4 or 8. The default is
// the fastest measured on an H100 in both precisions (bench/README.md, "Direct gravity on
// CUDA", the direct_tune rows): 8 from 65 536 bodies, where eight independent chains per thread
// hide fp64's latency best; 2 below, where the blocks of 32 threads that 8 makes leave too few
// threads to share each tile of sources.
inline constexpr int default_targets_per_thread(std::size_t n) { return n >= 65536 ? 8 : 2; }

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
  int targets_per_thread;        // 2, 4 or 8
};

// Enqueues the pass on `stream` (the device current).
template <class Real>
void launch_direct_pass(const DirectPass<Real>& pass, cudaStream_t stream);

// Source slices that fill a device of `sms` multiprocessors for `targets` targets of n sources
// when each thread sums `targets_per_thread` of them.
int direct_slices(std::size_t targets, std::size_t n, int sms, int targets_per_thread);

}  // namespace orrery::cuda
