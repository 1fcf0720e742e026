// SPDX-License-Identifier: MIT
// Computing a divergence map (or chosen pixels of one) on the backend the options choose: the
// dispatcher, which brings in the backends. The options (ensemble/map_run_options.hpp) and the
// results (ensemble/divergence_counts.hpp) are in headers of their own.
#pragma once

#include <memory>
#include <span>

#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery {

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
