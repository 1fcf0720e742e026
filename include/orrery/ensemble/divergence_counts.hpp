// SPDX-License-Identifier: MIT
// What computing a divergence map gives: the counts of each pixel and how they were computed.
// Apart from the dispatcher (ensemble/divergence_map.hpp), so that the backends, the files and
// the jobs can name them without it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace orrery {

struct MapRunInfo {
  std::string backend;  // the backend that ran ("cpu", "cuda")
  std::string kernel;   // the CPU kernel ("avx512", "avx2", "generic") or the device name
  int threads = 0;      // CPU threads, or GPUs
  std::string note;     // e.g. why "auto" ran on the CPU
  double device_seconds = 0;  // CUDA: first launch to last result, the slowest device
  double wall_seconds = 0;
  // From the call to the start of the backend's work (CUDA: the last device's launch), the
  // choice of backend included: what was set up rather than computed.
  double setup_seconds = 0;
  // CUDA, seconds from the start of the call: when the last device's kernel was launched, when
  // the shared pool handed out its last pixel, and when each device's kernel was seen done;
  // and the pixels each device computed.
  double launched_seconds = 0;
  double pool_empty_seconds = 0;
  std::vector<double> device_done_seconds;
  std::vector<std::int64_t> device_pixels;
};

struct DivergenceCounts {
  std::vector<std::int32_t> counts;     // steps until the twins separate, or `steps`
  std::vector<std::uint8_t> nonfinite;  // 1 where the integration produced a non-finite position
  std::int64_t pixel_steps = 0;         // Σ counts: the steps actually integrated
  std::int64_t nonfinite_pixels = 0;
  MapRunInfo info;
};

// The whole grid; counts are row-major, row k holding y_k (the smallest y first).
struct DivergenceMap : DivergenceCounts {
  std::int32_t width = 0, height = 0;
  std::int32_t at(std::int32_t j, std::int32_t k) const {
    return counts[static_cast<std::size_t>(k) * width + j];
  }
};

using PixelIndex = std::array<std::int32_t, 2>;  // (column j, row k)

}  // namespace orrery
