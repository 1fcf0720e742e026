// SPDX-License-Identifier: MIT
#include "orrery/ensemble/divergence_map.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "cpu/divergence_map_cpu.hpp"
#include "ensemble/backend_choice.hpp"
#if ORRERY_WITH_CUDA
#include "cuda/divergence_map_cuda.hpp"
#include "device/cuda/device_info.hpp"
#endif
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery {

namespace {

DivergenceCounts run(const DivergenceMapParams& params, std::span<const PixelIndex> pixels,
                     const MapRunOptions& options) {
  const auto called = std::chrono::steady_clock::now();
  validate(params);
  if (options.precision == Precision::fp128)
    throw ParameterError("precision", to_string(options.precision),
                         "one of: fp64, fp32, mixed (the map's backends have no fp128 kernels)");
  for (const auto& [j, k] : pixels)
    if (j < 0 || j >= params.width || k < 0 || k >= params.height)
      throw ParameterError("pixel", fmt::format("({}, {})", j, k),
                           fmt::format("0 <= j < {} and 0 <= k < {}", params.width,
                                       params.height));
  if (options.threads < 0)
    throw ParameterError("threads", fmt::format("{}", options.threads),
                         "a positive number of threads (0: all cores)");
  // Double-double runs on the CPU lanes only: asked of the GPU it is refused, and `auto` takes
  // the CPU for it.
  if (options.precision == Precision::dd && options.backend == Backend::cuda)
    throw ParameterError("backend", to_string(Backend::cuda),
                         fmt::format("{} or {} with --precision dd (double-double has CPU kernels "
                                     "only)",
                                     to_string(Backend::cpu), to_string(Backend::automatic)));
  const BackendChoice choice = choose_backend(
      options.precision == Precision::dd ? Backend::cpu : options.backend, options.devices);
  const bool on_gpu = choice.on_gpu;

  const DivergenceSetup setup = make_divergence_setup(params);
  const auto t0 = std::chrono::steady_clock::now();
  DivergenceCounts out;
#if ORRERY_WITH_CUDA
  if (on_gpu) out = cuda::run_divergence_map(setup, pixels, options, cuda::MapPolicy::schedule);
#endif
  if (!on_gpu) {
    out = cpu::run_divergence_map(setup, pixels, options);
    out.info.note = options.precision == Precision::dd
                        ? out.info.note
                        : cpu_run_note(choice, options.backend, out.info.note);
  }
  out.info.wall_seconds = seconds_since(t0);
  out.info.setup_seconds = std::chrono::duration<double>(t0 - called).count() +
                           (on_gpu ? out.info.launched_seconds : 0.0);
  return out;
}

}  // namespace

struct MapPreparation::Running {
  std::thread thread;
};

MapPreparation::MapPreparation([[maybe_unused]] const DivergenceMapParams& params,
                               [[maybe_unused]] const MapRunOptions& options) {
#if ORRERY_WITH_CUDA
  if (options.backend == Backend::cpu || options.precision == Precision::dd) return;
  running_ = std::make_unique<Running>();
  running_->thread = std::thread([params, devices = options.devices, precision = options.precision,
                         exact = options.exact_gpu] {
    try {
      cuda::prepare_divergence_map(params, devices, precision, exact);
    } catch (...) {  // met again, and reported, by the computation
    }
  });
#endif
}

MapPreparation::~MapPreparation() { wait(); }

void MapPreparation::wait() {
  if (running_ && running_->thread.joinable()) running_->thread.join();
}

DivergenceMap compute_divergence_map(const DivergenceMapParams& params,
                                     const MapRunOptions& options) {
  DivergenceMap map;
  static_cast<DivergenceCounts&>(map) = run(params, {}, options);
  map.width = params.width;
  map.height = params.height;
  return map;
}

DivergenceCounts compute_divergence_pixels(const DivergenceMapParams& params,
                                           std::span<const PixelIndex> pixels,
                                           const MapRunOptions& options) {
  if (pixels.empty()) return {};
  return run(params, pixels, options);
}

}  // namespace orrery
