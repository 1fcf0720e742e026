// SPDX-License-Identifier: MIT
#include "divergence_map_cpu.hpp"

#include <omp.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "twin_task_source.hpp"

namespace orrery::cpu {

namespace {

const CpuKernel& choose_kernel(const std::string& name) {
  std::vector<std::string> runnable;
  for (const auto& k : cpu_kernels())
    if (k.supported()) runnable.emplace_back(k.name);
  for (const auto& k : cpu_kernels()) {
    if (!name.empty() && name != k.name) continue;
    if (k.supported()) return k;
    if (!name.empty())
      throw ParameterError("cpu-kernel", name,
                           fmt::format("a kernel this CPU runs: {}", fmt::join(runnable, ", ")));
  }
  throw ParameterError("cpu-kernel", name,
                       fmt::format("one of: {}", fmt::join(cpu_kernel_names(), ", ")));
}

}  // namespace

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options) {
  const CpuKernel& kernel = choose_kernel(options.cpu_kernel);
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();

  const std::size_t n = pixels.empty() ? static_cast<std::size_t>(setup.width) * setup.height
                                        : pixels.size();
  DivergenceCounts out;
  out.counts.assign(n, 0);
  out.nonfinite.assign(n, 0);
  TwinTaskSource tasks(setup, pixels, out.counts.data(), out.nonfinite.data(), &options.progress);

#pragma omp parallel num_threads(threads)
  kernel.run(setup, options.precision, tasks);

  tasks.report_progress();
  out.pixel_steps = tasks.progress().pixel_steps;
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = "cpu";
  out.info.kernel = kernel.name;
  out.info.threads = threads;
  return out;
}

}  // namespace orrery::cpu

namespace orrery {

std::vector<std::string> cpu_kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : cpu::cpu_kernels()) names.emplace_back(k.name);
  return names;
}

std::vector<std::string> supported_cpu_kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : cpu::cpu_kernels())
    if (k.supported()) names.emplace_back(k.name);
  return names;
}

}  // namespace orrery
