// SPDX-License-Identifier: MIT
// What the CPU chaos lanes (chaos_lanes.cpp) work from: the ensemble's blocks of trajectories and
// final states (ensemble_task_source.hpp), the chaos setup, and where the indicator values go.
#pragma once

#include <array>
#include <span>

#include "ensemble/cpu/ensemble_task_source.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"

namespace orrery::cpu {

struct ChaosTaskSource {
  ChaosTaskSource(const ChaosSetup& setup, ChaosOutcome& out,
                  const std::function<void(const EnsembleProgress&)>* progress)
      : chaos(setup), tasks(setup.ensemble, out.ensemble, progress), values(out.values.data()) {}
  const ChaosSetup& chaos;
  EnsembleTaskSource tasks;
  double* const values;  // ChaosOutcome::values
};

// One instruction-set variant of the chaos lanes: run[p] for problem p, called by every worker.
struct ChaosCpuKernel {
  using Run = void (*)(ChaosTaskSource&);
  const char* name;
  std::array<Run, kEnsembleProblemCount> run;
};

std::span<const ChaosCpuKernel> chaos_cpu_kernels();  // widest first

}  // namespace orrery::cpu
