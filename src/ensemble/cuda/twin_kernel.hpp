// SPDX-License-Identifier: MIT
// Host-side view of the CUDA divergence kernel: what one launch computes and how it is started.
// (The kernel itself is in twin_kernel.cu; this header holds no CUDA device code.)
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_setup.hpp"

namespace orrery::cuda {

// The pixels of one launch: positions [first, first + count) of a run's pixel order. Position q
// is pixel list[q] when a list is given, else pixel (q·stride) mod pixels of the grid (stride
// coprime with the pixel count, so every range is spread evenly over the map and tiles cost
// about the same). Pixels are numbered row-major (k·width + j). Results go to the launch's own
// arrays at q − first.
struct TwinTile {
  std::uint64_t first = 0, count = 0;
  std::uint64_t stride = 1;
  std::uint64_t pixels = 0;
  const std::uint64_t* list = nullptr;    // device, or null for the grid
  std::int32_t* counts = nullptr;         // device, count entries
  std::uint8_t* nonfinite = nullptr;      // device, count entries
  unsigned long long* claimed = nullptr;  // device counter, zeroed before the launch
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
