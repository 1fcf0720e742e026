// SPDX-License-Identifier: MIT
#include "orrery/ensemble/divergence_map.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cpu/divergence_map_cpu.hpp"
#include "ensemble/backend_choice.hpp"
#if ORRERY_WITH_CUDA
#include "cuda/divergence_map_cuda.hpp"
#include "cuda/perturbed_map_cuda.hpp"
#include "device/cuda/device_info.hpp"
#endif
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

namespace orrery {

namespace {

DivergenceCounts run(const DivergenceMapParams& params, std::span<const PixelIndex> pixels,
                     const MapRunOptions& options);

// The map by perturbation (problems/divergence3/perturbed_twin.hpp): the frame's reference
// trajectory on the host, then the pixels on the GPU or the CPU lanes. A pixel that outlives the
// reference (its bodies met before the frame's last step) is computed again in double-double:
// the one case the perturbation cannot continue.
DivergenceCounts run_perturbed(const DivergenceMapParams& params, const DivergenceSetup& setup,
                               std::span<const PixelIndex> pixels, const MapRunOptions& options,
                               [[maybe_unused]] bool on_gpu) {
  const auto r0 = std::chrono::steady_clock::now();
  const ReferenceOrbit reference = compute_reference_orbit(setup, reference_bits(setup));
  const double reference_seconds = seconds_since(r0);
  DivergenceCounts out;
#if ORRERY_WITH_CUDA
  if (on_gpu) out = cuda::run_perturbed_map(setup, reference, pixels, options);
#endif
  if (!on_gpu) out = cpu::run_divergence_map(setup, pixels, options, &reference);
  std::string note = fmt::format("reference trajectory in {} bits, {:.3g} s", reference.bits,
                                 reference_seconds);
  if (reference.steps < setup.steps) {
    std::vector<PixelIndex> outlived;
    std::vector<std::size_t> at;
    for (std::size_t t = 0; t < out.counts.size(); ++t)
      if (out.counts[t] >= reference.steps) {
        at.push_back(t);
        outlived.push_back(pixels.empty()
                               ? PixelIndex{static_cast<std::int32_t>(t % setup.width),
                                            static_cast<std::int32_t>(t / setup.width)}
                               : pixels[t]);
      }
    note += fmt::format("; it collided at step {}: {} pixels outlived it and were computed in "
                        "double-double",
                        reference.steps, outlived.size());
    if (!outlived.empty()) {
      MapRunOptions dd = options;
      dd.precision = Precision::dd;
      dd.backend = Backend::cpu;
      const DivergenceCounts again = run(params, outlived, dd);
      for (std::size_t i = 0; i < at.size(); ++i) {
        out.pixel_steps += again.counts[i] - out.counts[at[i]];
        out.counts[at[i]] = again.counts[i];
        out.nonfinite_pixels += again.nonfinite[i] - out.nonfinite[at[i]];
        out.nonfinite[at[i]] = again.nonfinite[i];
      }
    }
  }
  out.info.note = out.info.note.empty() ? note : note + "; " + out.info.note;
  return out;
}

DivergenceCounts run(const DivergenceMapParams& params, std::span<const PixelIndex> pixels,
                     const MapRunOptions& options) {
  const auto called = std::chrono::steady_clock::now();
  validate(params);
  if (options.precision == Precision::fp128)
    throw ParameterError("precision", to_string(options.precision),
                         "one of: fp64, fp32, mixed, dd (the map's backends have no fp128 "
                         "kernels)");
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

  if (options.deep == DeepMethod::perturbation && options.precision != Precision::fp64)
    throw ParameterError("precision", to_string(options.precision),
                         "fp64 with the perturbation (its pixels are fp64 differences from the "
                         "reference trajectory)");
  const DivergenceSetup setup = make_divergence_setup(params);
  const auto t0 = std::chrono::steady_clock::now();
  DivergenceCounts out;
  if (options.deep == DeepMethod::perturbation) {
    out = run_perturbed(params, setup, pixels, options, on_gpu);
    out.info.wall_seconds = seconds_since(t0);
    out.info.setup_seconds = std::chrono::duration<double>(t0 - called).count();
    return out;
  }
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
  if (options.backend == Backend::cpu || options.precision == Precision::dd ||
      options.deep == DeepMethod::perturbation)
    return;
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
