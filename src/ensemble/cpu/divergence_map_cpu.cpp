// SPDX-License-Identifier: MIT
#include "divergence_map_cpu.hpp"

#include <omp.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device/cpu/cpu_isa.hpp"
#include "orrery/core/error.hpp"
#include "twin_task_source.hpp"

namespace orrery::cpu {

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options) {
  const CpuKernel& kernel = choose_kernel<CpuKernel>(cpu_kernels(), options.cpu_kernel);
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();

  const std::size_t n = pixels.empty() ? static_cast<std::size_t>(setup.width) * setup.height
                                        : pixels.size();
  DivergenceCounts out;
  out.counts.assign(n, -1);  // unknown until its task finishes
  out.nonfinite.assign(n, 0);
  TwinTaskSource tasks(setup, pixels, out.counts.data(), out.nonfinite.data(), &options.progress);

#pragma omp parallel num_threads(threads)
  kernel.run[static_cast<std::size_t>(setup.integrator)](setup, options.precision, tasks);

  tasks.report_progress();
  out.pixel_steps = tasks.progress().pixel_steps;
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = "cpu";
  out.info.kernel = kernel.name;
  out.info.threads = threads;
  return out;
}

}  // namespace orrery::cpu

