// SPDX-License-Identifier: MIT
#include "divergence_map_cpu.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <string_view>

#include "device/cpu/cpu_isa.hpp"
#include "device/cpu/on_threads.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/core/error.hpp"
#include "twin_task_source.hpp"

namespace orrery::cpu {

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options,
                                    const ReferenceOrbit* reference) {
  const CpuKernel& kernel = choose_kernel<CpuKernel>(cpu_kernels(), options.cpu_kernel);
  // Double-double is compiled for the vector instruction sets only (twin_lanes.cpp).
  if (options.precision == Precision::dd && std::string_view(kernel.name) == "generic")
    throw ParameterError("precision", to_string(options.precision),
                         "fp64, fp32 or mixed on the generic kernel: double-double needs AVX2 "
                         "or AVX-512 (--cpu-kernel)");
  const std::size_t n = pixels.empty() ? static_cast<std::size_t>(setup.width) * setup.height
                                        : pixels.size();
  // No more threads than the CPUs this process may use, nor than there are tiles of pixels.
  const int threads = cpu_thread_count(options.threads,
                                       (n + kTilePixels - 1) / std::size_t{kTilePixels});
  DivergenceCounts out;
  out.counts.assign(n, -1);  // unknown until its task finishes
  out.nonfinite.assign(n, 0);
  TwinTaskSource tasks(setup, pixels, out.counts.data(), out.nonfinite.data(), &options.progress);
  tasks.reference = reference;
  if (options.deep == DeepMethod::perturbation && reference == nullptr)
    throw std::logic_error("the perturbed map needs its reference trajectory");

  on_threads(threads, [&](std::size_t, std::size_t) {
    kernel.run[static_cast<std::size_t>(setup.integrator)](setup, options.precision, tasks);
  });

  tasks.report_progress();
  out.pixel_steps = tasks.progress().pixel_steps;
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = to_string(Backend::cpu);
  out.info.kernel = kernel.name;
  out.info.threads = threads;
  out.info.note = cpu_threads_note(options.threads);
  return out;
}

}  // namespace orrery::cpu

