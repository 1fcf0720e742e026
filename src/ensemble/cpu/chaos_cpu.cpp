// SPDX-License-Identifier: MIT
// A chaos run on the CPU: every core, each taking blocks of a vector's worth of trajectories
// (chaos_lanes.cpp) for the widest instruction set the CPU runs.
#include <chrono>

#include <fmt/format.h>

#include "device/cpu/cpu_isa.hpp"
#include "device/cpu/on_threads.hpp"
#include "ensemble/backend_choice.hpp"
#include "ensemble/cpu/chaos_task_source.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"

#if ORRERY_WITH_CUDA
#include "ensemble/cuda/chaos_cuda.hpp"
#endif

namespace orrery {

namespace cpu {
void run_chaos(const ChaosSetup& setup, const EnsembleRunOptions& options, ChaosOutcome& out) {
  require_ensemble_lanes();
  const ChaosCpuKernel& kernel =
      choose_kernel<ChaosCpuKernel>(chaos_cpu_kernels(), options.cpu_kernel);
  const int threads =
      cpu_thread_count(options.threads, static_cast<std::size_t>(setup.ensemble.trajectories), 8);
  ChaosTaskSource tasks(setup, out, &options.progress);
  const auto start = std::chrono::steady_clock::now();
  const auto& run = setup.double_double_vectors ? kernel.run_double_double : kernel.run;
  on_threads(threads, [&](std::size_t, std::size_t) {
    run[static_cast<std::size_t>(setup.ensemble.problem)](tasks);
  });
  out.info.seconds = seconds_since(start);
  tasks.tasks.report_progress();
  tasks.rethrow_stop();
  out.info.backend = to_string(Backend::cpu);
  out.info.kernel = setup.double_double_vectors ? fmt::format("{} (double-double vectors)", kernel.name)
                                                : std::string(kernel.name);
  out.info.threads = threads;
  out.info.note = cpu_threads_note(options.threads);
}
}  // namespace cpu

ChaosOutcome run_chaos(const ChaosSetup& setup, const EnsembleRunOptions& options) {
  check_chaos_setup(setup);
  if (setup.double_double_vectors && options.backend == Backend::cuda)
    throw ParameterError("tangent-precision", "dd",
                         "fp64 with --backend cuda: double-double deviation vectors run on the "
                         "CPU only (--backend cpu or auto)");
  BackendChoice choice = choose_backend(options.backend, options.devices);
  if (setup.double_double_vectors && choice.on_gpu) {
    choice.on_gpu = false;
    choice.why = "double-double deviation vectors run on the CPU only";
  }
  const auto start = std::chrono::steady_clock::now();
  ChaosOutcome out;
  const std::int64_t n = setup.ensemble.trajectories;
  const int d = ensemble_problems()[static_cast<std::size_t>(setup.ensemble.problem)].state_words;
  out.trajectories = n;
  out.samples = setup.samples;
  out.outputs = chaos_kernel_outputs(setup.kernel, d);
  out.values.resize(static_cast<std::size_t>(n * out.outputs * setup.samples));
  out.ensemble.trajectories = n;
  out.ensemble.state_words = d;
  out.ensemble.final_state.resize(static_cast<std::size_t>(n * d));
  out.ensemble.trajectory_steps = n * setup.ensemble.steps;
  const std::int64_t intervals = setup.ensemble.steps / setup.every;
  for (int s = 1; s <= setup.samples; ++s)
    out.sample_time.push_back(setup.ensemble.dt * static_cast<double>(
                                  setup.every * ((intervals * s + setup.samples - 1) / setup.samples)));
#if ORRERY_WITH_CUDA
  if (choice.on_gpu) cuda::run_chaos(setup, options, out);
#endif
  if (!choice.on_gpu) {
    cpu::run_chaos(setup, options, out);
    out.info.note = cpu_run_note(choice, options.backend, out.info.note);
  }
  out.info.wall_seconds = seconds_since(start);
  return out;
}

}  // namespace orrery
