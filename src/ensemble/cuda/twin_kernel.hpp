// SPDX-License-Identifier: MIT
// Host-side view of the CUDA divergence kernel: what one launch computes and how it is started.
// (The kernel itself is in twin_kernel.cu; this header holds no CUDA device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_setup.hpp"

namespace orrery::cuda {

// The pixels of one launch: pixel list[q] (row-major, k·width + j) for q in [0, count), its
// results at counts[q], nonfinite[q]. All device pointers.
struct TwinTile {
  std::uint64_t count = 0;
  const std::uint64_t* list = nullptr;
  std::int32_t* counts = nullptr;
  std::uint8_t* nonfinite = nullptr;
  unsigned long long* claimed = nullptr;  // zeroed before the launch
};

struct TwinLaunch {
  int blocks = 0;
  int threads_per_block = 0;
};

// The launch shape that fills the device: every resident thread starts on its own pixel and
// takes the next unclaimed one whenever its pixel finishes.
TwinLaunch twin_launch_shape(Precision precision, int body, bool exact, int device);

// Enqueues the kernel on `stream`; checks the launch.
void launch_twin_kernel(const DivergenceSetup& setup, Precision precision, bool exact,
                        const TwinTile& tile, const TwinLaunch& shape, cudaStream_t stream);

}  // namespace orrery::cuda
