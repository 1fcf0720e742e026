// SPDX-License-Identifier: MIT
#include "ensemble/cpu/ensemble_task_source.hpp"

#include <omp.h>

#include <algorithm>

#include "orrery/core/seconds_since.hpp"

namespace orrery::cpu {

EnsembleTaskSource::EnsembleTaskSource(const EnsembleSetup& s, EnsembleOutcome& out,
                                       const std::function<void(const EnsembleProgress&)>* progress)
    : setup(s),
      final_state(out.final_state.data()),
      drift(out.drift.empty() ? nullptr : out.drift.data()),
      steps_accepted(out.steps_accepted.empty() ? nullptr : out.steps_accepted.data()),
      steps_rejected(out.steps_rejected.empty() ? nullptr : out.steps_rejected.data()),
      status(out.status.empty() ? nullptr : out.status.data()),
      section_count(out.section_count.empty() ? nullptr : out.section_count.data()),
      section_points(out.section_points.empty() ? nullptr : out.section_points.data()),
      progress_(progress),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_) {}

bool EnsembleTaskSource::next_block(std::int64_t most, std::int64_t& first, std::int64_t& count,
                                    std::int64_t& finished) {
  if (finished > 0) done_.fetch_add(finished, std::memory_order_relaxed);
  finished = 0;
  // The first thread reports progress; the others never wait for it.
  if (progress_ && *progress_ && omp_get_thread_num() == 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ > std::chrono::milliseconds(250)) {
      last_report_ = now;
      report_progress();
    }
  }
  first = next_.fetch_add(most, std::memory_order_relaxed);
  count = std::min(most, setup.trajectories - first);
  return count > 0;
}

EnsembleProgress EnsembleTaskSource::progress() const {
  EnsembleProgress p;
  p.trajectories_done = done_.load(std::memory_order_relaxed);
  p.trajectories_total = setup.trajectories;
  p.seconds = seconds_since(start_);
  return p;
}

void EnsembleTaskSource::report_progress() {
  if (progress_ && *progress_) (*progress_)(progress());
}

}  // namespace orrery::cpu
