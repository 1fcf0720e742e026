// SPDX-License-Identifier: MIT
// What the CPU ensemble lanes work from: blocks of consecutive trajectories taken on demand (a
// thread that finishes early takes more), the run's setup, and where the results go. The lanes
// are compiled once per instruction set and call only the out-of-line members here, so no
// inline code compiled for AVX-512 can leak into code that runs on a CPU without it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>

#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery::cpu {

class EnsembleTaskSource {
 public:
  EnsembleTaskSource(const EnsembleSetup& setup, EnsembleOutcome& out,
                     const std::function<void(const EnsembleProgress&)>* progress);

  // The next block of up to `most` trajectories, [first, first + count); false when none is
  // left. Reports the trajectories the thread finished since its last call.
  bool next_block(std::int64_t most, std::int64_t& first, std::int64_t& count,
                  std::int64_t& finished);
  EnsembleProgress progress() const;
  void report_progress();

  const EnsembleSetup& setup;
  double* const final_state;  // trajectories × state words
  float* const drift;         // samples × trajectories, or null
  // With a tolerance, per trajectory (else null).
  std::uint32_t* const steps_accepted;
  std::uint32_t* const steps_rejected;
  std::uint8_t* const status;
  // With a section (else null): each trajectory's crossings, and its first K recorded as rows of
  // the state words then the time (EnsembleOutcome::section_points).
  std::int64_t* const section_count;
  double* const section_points;

 private:
  std::atomic<std::int64_t> next_{0};
  std::atomic<std::int64_t> done_{0};
  const std::function<void(const EnsembleProgress&)>* progress_;
  std::chrono::steady_clock::time_point start_, last_report_;
};

// One instruction-set variant of the lanes: `run[p]` (problem p) is called by every worker thread
// and returns when the source is exhausted; `run_section[p]` the same for a run with a section
// (ensemble_section_lanes.cpp, compiled apart so that the lanes without one are untouched).
struct EnsembleCpuKernel {
  using Run = void (*)(EnsembleTaskSource&);
  const char* name;
  std::array<Run, kEnsembleProblemCount> run;
  std::array<Run, kEnsembleProblemCount> run_section;
};

std::span<const EnsembleCpuKernel> ensemble_cpu_kernels();  // widest first

// Throws InputError, saying how to add them, when this build has no lanes for ensembles and
// chaos indicators (ORRERY_ENSEMBLE_LANES off: scripts/setup's first, CLI-only build).
void require_ensemble_lanes();

}  // namespace orrery::cpu
