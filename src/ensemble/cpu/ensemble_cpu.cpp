// SPDX-License-Identifier: MIT
#include "ensemble/cpu/ensemble_cpu.hpp"

#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device/cpu/cpu_isa.hpp"
#include "device/cpu/on_threads.hpp"
#include "ensemble/cpu/ensemble_task_source.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"

namespace orrery::cpu {

void require_ensemble_lanes() {
  if (ensemble_cpu_kernels().empty())
    throw InputError(
        "this build has no CPU lanes for ensembles and chaos indicators (scripts/setup alone "
        "builds what the map needs: ORRERY_ENSEMBLE_LANES=OFF); add them with `scripts/setup "
        "--full` (a few minutes), or run on a GPU with --backend cuda");
}

void run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options,
                  EnsembleOutcome& out) {
  require_ensemble_lanes();
  const EnsembleCpuKernel& kernel =
      choose_kernel<EnsembleCpuKernel>(ensemble_cpu_kernels(), options.cpu_kernel);
  // No more threads than blocks of eight trajectories (the widest vector of doubles).
  const int threads =
      cpu_thread_count(options.threads, static_cast<std::size_t>(setup.trajectories), 8);
  EnsembleTaskSource tasks(setup, out, &options.progress);
  const auto start = std::chrono::steady_clock::now();
  on_threads(threads, [&](std::size_t, std::size_t) {
    const auto p = static_cast<std::size_t>(setup.problem);
    (setup.section.word >= 0 ? kernel.run_section[p] : kernel.run[p])(tasks);
  });
  out.info.seconds = seconds_since(start);
  tasks.report_progress();
  out.info.backend = to_string(Backend::cpu);
  out.info.kernel = kernel.name;
  out.info.threads = threads;
  out.info.note = cpu_threads_note(options.threads);
}

}  // namespace orrery::cpu
