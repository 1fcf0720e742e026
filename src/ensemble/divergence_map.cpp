// SPDX-License-Identifier: MIT
#include "orrery/ensemble/divergence_map.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "cpu/divergence_map_cpu.hpp"
#if ORRERY_WITH_CUDA
#include "cuda/divergence_map_cuda.hpp"
#include "device/cuda/device_info.hpp"
#endif
#include "orrery/core/error.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery {

namespace {

DivergenceCounts run(const DivergenceMapParams& params, std::span<const PixelIndex> pixels,
                     const MapRunOptions& options) {
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
  // The backend, decided before any work: CUDA when asked (or, for auto, when a device is
  // there), else the CPU with a note saying why.
  std::string why;
  const int devices = cuda_device_count(&why);
  if (options.backend == Backend::cuda) {
    if (!cuda_built())
      throw InputError(
          "--backend cuda: this build of orrery has no CUDA backend (reconfigure with "
          "-DORRERY_CUDA=ON on a machine with nvcc)");
    if (devices == 0)
      throw InputError(fmt::format("--backend cuda: {}", why));
  }
  check_device_list(options.devices, devices);
  const bool on_gpu = options.backend != Backend::cpu && devices > 0;

  const DivergenceSetup setup = make_divergence_setup(params);
  const auto t0 = std::chrono::steady_clock::now();
  DivergenceCounts out;
#if ORRERY_WITH_CUDA
  if (on_gpu) out = cuda::run_divergence_map(setup, pixels, options, cuda::MapPolicy::schedule);
#endif
  if (!on_gpu) {
    out = cpu::run_divergence_map(setup, pixels, options);
    if (options.backend == Backend::automatic) {
      const std::string threads_note = out.info.note;
      out.info.note = cuda_built() ? fmt::format("{}; computed on the CPU", why)
                                   : "this build has no CUDA backend; computed on the CPU";
      if (!threads_note.empty()) out.info.note += "; " + threads_note;
    }
  }
  out.info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace

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
