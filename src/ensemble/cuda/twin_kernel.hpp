// SPDX-License-Identifier: MIT
// Host-side view of the CUDA divergence kernel: what one launch works from and how it is
// started. (The kernel itself is in twin_kernel.cu; this header holds no device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_setup.hpp"

namespace orrery::cuda {

// The work of one persistent launch, fed by the host while it runs. A thread claims sequence
// number s (one atomic increment in device memory) and waits until the host has written entry s
// of the ring, a 64-bit word (s + 1) << 32 | item in pinned host memory; it stops when the host
// closes the feed. Item i is pixel list[i] (row-major k·width + j) or, without a list, pixel i;
// its results go to out_counts[i] and out_nonfinite[i], also in pinned host memory.
struct TwinFeed {
  const std::uint64_t* ring = nullptr;     // mapped pinned host memory, `capacity` entries
  std::uint64_t capacity = 0;
  const int* closed = nullptr;             // mapped pinned: 1 once no more entries will come
  int* overrun = nullptr;                  // mapped pinned: set if an entry was overwritten unread
  unsigned long long* claimed = nullptr;   // device memory, zeroed before the launch
  const std::uint64_t* list = nullptr;     // device memory, or null
  std::int32_t* out_counts = nullptr;      // mapped pinned host memory
  std::uint8_t* out_nonfinite = nullptr;   // mapped pinned host memory
};

struct TwinLaunch {
  int blocks = 0;
  int threads_per_block = 0;
};

// The launch shape that fills the device: every resident thread works through pixels until the
// feed closes.
TwinLaunch twin_launch_shape(Precision precision, int body, bool exact, int device);

// Enqueues the kernel on `stream`; checks the launch.
void launch_twin_kernel(const DivergenceSetup& setup, Precision precision, bool exact,
                        const TwinFeed& feed, const TwinLaunch& shape, cudaStream_t stream);

}  // namespace orrery::cuda
