// SPDX-License-Identifier: MIT
// What the CPU chaos lanes (chaos_lanes.cpp) work from: the ensemble's blocks of trajectories and
// final states (ensemble_task_source.hpp), the chaos setup, and where the indicator values go.
#pragma once

#include <array>
#include <atomic>
#include <exception>
#include <functional>
#include <span>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"

namespace orrery::cpu {

// The progress callback is called on the calling thread (OpenMP's thread 0). One that throws
// (Ctrl-C in Python) stops the run: no thread takes another block, and rethrow_stop() rethrows
// the exception once the workers have returned (none may leave an OpenMP region).
struct ChaosTaskSource {
  ChaosTaskSource(const ChaosSetup& setup, ChaosOutcome& out,
                  const std::function<void(const EnsembleProgress&)>* progress)
      : chaos(setup),
        watched(progress && *progress ? watch(*progress) : nullptr),
        tasks(setup.ensemble, out.ensemble, &watched),
        values(out.values.data()) {}
  bool next_block(std::int64_t most, std::int64_t& first, std::int64_t& count,
                  std::int64_t& finished) {
    if (stopped.load(std::memory_order_relaxed)) most = 0;  // hands in `finished`, takes none
    return tasks.next_block(most, first, count, finished) && count > 0;
  }
  void rethrow_stop() const {
    if (stop) std::rethrow_exception(stop);
  }

  const ChaosSetup& chaos;
  std::atomic<bool> stopped{false};
  std::exception_ptr stop;
  const std::function<void(const EnsembleProgress&)> watched;
  EnsembleTaskSource tasks;
  double* const values;  // ChaosOutcome::values

 private:
  std::function<void(const EnsembleProgress&)> watch(
      const std::function<void(const EnsembleProgress&)>& progress) {
    return [this, &progress](const EnsembleProgress& p) {
      if (stopped.load(std::memory_order_relaxed)) return;
      try {
        progress(p);
      } catch (...) {
        stop = std::current_exception();
        stopped.store(true, std::memory_order_relaxed);
      }
    };
  }
};

// One instruction-set variant of the chaos lanes: run[p] for problem p, called by every worker;
// run_double_double[p] the same with double-double vectors (chaos_dd_lanes.cpp).
struct ChaosCpuKernel {
  using Run = void (*)(ChaosTaskSource&);
  const char* name;
  std::array<Run, kEnsembleProblemCount> run;
  std::array<Run, kEnsembleProblemCount> run_double_double;
};

std::span<const ChaosCpuKernel> chaos_cpu_kernels();  // widest first

}  // namespace orrery::cpu
