// SPDX-License-Identifier: MIT
#include "orrery/ensemble/divergence_map.hpp"

#include <chrono>

#include <fmt/format.h>

#include "cpu/divergence_map_cpu.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/divergence_setup.hpp"

namespace orrery {

namespace {

DivergenceCounts run(const DivergenceMapParams& params, std::span<const PixelIndex> pixels,
                     const MapRunOptions& options) {
  validate(params);
  for (const auto& [j, k] : pixels)
    if (j < 0 || j >= params.width || k < 0 || k >= params.height)
      throw ParameterError("pixel", fmt::format("({}, {})", j, k),
                           fmt::format("0 <= j < {} and 0 <= k < {}", params.width,
                                       params.height));
  if (options.threads < 0)
    throw ParameterError("threads", fmt::format("{}", options.threads),
                         "a positive number of threads (0: all cores)");
  if (options.backend == Backend::cuda)
    throw InputError(
        "--backend cuda: this build of orrery has no CUDA backend (reconfigure with "
        "-DORRERY_CUDA=ON on a machine with nvcc)");

  const DivergenceSetup setup = make_divergence_setup(params);
  const auto t0 = std::chrono::steady_clock::now();
  DivergenceCounts out = cpu::run_divergence_map(setup, pixels, options);
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
