// SPDX-License-Identifier: MIT
// How a divergence map is computed: the backend, precision and threads that
// compute_divergence_map() (ensemble/divergence_map.hpp) is given, and the progress it reports.
// Apart from the dispatcher, so that the backends and the jobs can name them without it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/precision.hpp"

namespace orrery {

struct MapProgress {
  std::int64_t pixels_done = 0;
  std::int64_t pixels_total = 0;
  std::int64_t pixel_steps = 0;  // steps integrated so far, summed over finished pixels
  double seconds = 0;
};

// How a window deeper than the precision resolves is computed: not at all (`none`: the
// precision's own map), or by perturbation about a reference trajectory (fp64 differences from
// it on the CPU lanes or the GPU: problems/divergence3/perturbed_twin.hpp; docs/guide/deep-zoom.md).
enum class DeepMethod { none, perturbation };

struct MapRunOptions {
  Backend backend = Backend::automatic;
  Precision precision = Precision::fp64;
  DeepMethod deep = DeepMethod::none;  // perturbation: with precision fp64 alone
  int threads = 0;         // CPU threads; 0 takes every CPU this process may use
  std::string cpu_kernel;  // "" takes the widest the CPU runs; else a name of cpu_kernel_names()
  std::vector<int> devices;  // CUDA devices to use; empty: all
  // On the GPU, evaluate 1/r³ with correctly rounded square root and division, as the CPU does,
  // instead of the hardware reciprocal square root: counts bit-identical to the CPU's, slower.
  bool exact_gpu = false;
  // Called from one thread, a few times a second, and once at the end.
  std::function<void(const MapProgress&)> progress;
};

}  // namespace orrery
