// SPDX-License-Identifier: MIT
// Computing a divergence map (or chosen pixels of one) on a backend.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <memory>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery {

struct MapProgress {
  std::int64_t pixels_done = 0;
  std::int64_t pixels_total = 0;
  std::int64_t pixel_steps = 0;  // steps integrated so far, summed over finished pixels
  double seconds = 0;
};

struct MapRunOptions {
  Backend backend = Backend::automatic;
  Precision precision = Precision::fp64;
  int threads = 0;         // CPU threads; 0 takes every CPU this process may use
  std::string cpu_kernel;  // "" takes the widest the CPU runs; else a name of cpu_kernel_names()
  std::vector<int> devices;  // CUDA devices to use; empty: all
  // On the GPU, evaluate 1/r³ with correctly rounded square root and division, as the CPU does,
  // instead of the hardware reciprocal square root: counts bit-identical to the CPU's, slower.
  bool exact_gpu = false;
  // Called from one thread, a few times a second, and once at the end.
  std::function<void(const MapProgress&)> progress;
};

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

// Readies the backend these options choose on a thread of its own, so that it overlaps what the
// caller does until it calls compute_divergence_map(): on the CUDA backend each GPU's context,
// streams, pinned and device memory and the kernel's launch shape, which the next map of this
// process reuses. Nothing for the CPU. A failure here is left for the computation to meet and
// report; nothing is written and no parameter is judged. The destructor waits.
class MapPreparation {
 public:
  MapPreparation(const DivergenceMapParams& params, const MapRunOptions& options);
  ~MapPreparation();
  MapPreparation(const MapPreparation&) = delete;
  MapPreparation& operator=(const MapPreparation&) = delete;
  void wait();

 private:
  struct Running;  // the thread, where one was started
  std::unique_ptr<Running> running_;
};

// Both validate the parameters (throwing ParameterError) before any work starts.
DivergenceMap compute_divergence_map(const DivergenceMapParams& params,
                                     const MapRunOptions& options = {});
// Chosen pixels of the grid that `params` defines, in the order given.
DivergenceCounts compute_divergence_pixels(const DivergenceMapParams& params,
                                           std::span<const PixelIndex> pixels,
                                           const MapRunOptions& options = {});



}  // namespace orrery
