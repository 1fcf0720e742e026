// SPDX-License-Identifier: MIT
// The run loop of `orrery sim`: steps (where they go: nbody/step_schedule.hpp), snapshots,
// checkpoints, the non-finite check, progress.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "jobs/background_writer.hpp"
#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/dist/check_on_every_rank.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/nbody/step_schedule.hpp"

namespace orrery {

namespace {

// From this many bodies on, files are written by a thread of their own while the run goes on (a
// snapshot of 1024 bodies is 64 kB and an fsync, a millisecond or more on a disk); below, a few
// bodies step faster than a thread wakes, so their files are written at once. Two jobs in
// flight: a snapshot and its checkpoint.
constexpr std::size_t kBodiesForAWriterThread = 1024;
constexpr std::size_t kJobsInFlight = 2;

std::string drift_text(const DriftWarning& w, double limit) {
  return fmt::format("the relative energy drift reached {:.3g} at step {} (t = {}), past "
                     "--max-drift {:g}: the results may be wrong (a smaller --dt?)",
                     w.drift, w.step, w.time, limit);
}

// Ends the run with `error`. Over ranks every rank meets it at the same step (the state and the
// diagnostics are agreed): rank 0 says it and the others end quietly (dist/check_on_every_rank).
[[noreturn]] void stop_together(const RunError& error) {
  dist::check_on_every_rank([&] { throw error; });
  throw error;  // not reached: the check throws on every rank
}

int agreed_signal(int signal) {
  return dist::distributed() ? -dist::least_over_ranks(-signal) : signal;
}

}  // namespace

std::int64_t ranks_of_job() { return dist::distributed() ? dist::layout().size : 0; }

template <class Real>
SimOutcome run_loop(Simulation<Real>& sim, RunStore* store, const Diagnostics& initial,
                    std::int64_t next_snapshot, const SimCadence& cadence, DriftWarning warning,
                    const SimObserver& observer) {
  StepSchedule schedule = StepSchedule::to(cadence.t_end, sim.clock());
  schedule.every_time = cadence.every_time;
  const std::int64_t planned = planned_steps(sim.clock(), schedule);
  const std::int64_t start_steps = sim.clock().steps;
  const auto t0 = std::chrono::steady_clock::now();

  const RunSettings settings{cadence.t_end, cadence.every, cadence.every_time,
                             cadence.checkpoint_every};
  bool drift_passed = false;  // at this step
  // Files are written by a thread of their own while the steps go on (background_writer.hpp):
  // each job carries its copy of the state, the run thread only computes the diagnostics.
  BackgroundWriter writer(sim.size() >= kBodiesForAWriterThread ? kJobsInFlight : 0);
  // The drift is measured where the diagnostics are: at snapshots.
  auto snapshot = [&]() {
    const Diagnostics now = sim.diagnostics();
    const Drift drift = drift_since(initial, now);
    if (!warning.raised() && cadence.max_drift > 0 && drift.energy > cadence.max_drift) {
      warning = DriftWarning{now.time, sim.clock().steps, drift.energy};
      drift_passed = true;
      if (observer.warning) observer.warning(drift_text(warning, cadence.max_drift));
    }
    Particles<Real> whole = sim.particles();  // over ranks: gathered to rank 0, which writes
    if (store)
      writer.post([store, index = next_snapshot, p = std::move(whole), clock = sim.clock(), now,
                   drift, t_end = cadence.t_end, warning] {
        store->write_snapshot(index, p, clock, now, drift, t_end, warning);
      });
    if (observer.snapshot) observer.snapshot(next_snapshot, now, drift);
    ++next_snapshot;
  };
  auto checkpoint = [&]() {
    Checkpoint<Real> c{sim.particles(), sim.clock(), sim.stepper_state(), next_snapshot,
                       settings, warning};
    c.ranks = ranks_of_job();
    c.energy_offset = sim.energy_offset();
    if (store) writer.post([store, c = std::move(c)] { store->write_checkpoint(c); });
  };

  SimOutcome outcome;
  while (!schedule.finished(sim.clock())) {
    StepMove move;
    try {
      move = step_on_schedule(sim, schedule);
    } catch (const RunError& e) {
      throw RunError(fmt::format("{}; the last checkpoint is intact", e.what()));
    }
    if (auto bad = sim.first_nonfinite()) {
      writer.drain();  // what was good is on disk before the run names it
      std::string last = "none";
      if (store)
        if (const auto kept = store->snapshots(); !kept.empty())
          last = snapshot_path(store->folder(), kept.back()).string();
      stop_together(RunError(fmt::format("{}; stopped, the last good snapshot is {}",
                                         where_nonfinite(*bad, sim.clock()), last)));
    }
    // Collisions and exits, after the step and before its outputs: a merge is in the snapshot
    // and checkpoint of its step; an exit writes both and stops.
    const EventsDone events = apply_step_events(sim, cadence.events, move.h);
    outcome.merged += events.merged;
    const std::int64_t s = sim.clock().steps;
    ++outcome.steps;
    const bool at_end = schedule.finished(sim.clock());
    drift_passed = false;
    if ((cadence.every > 0 && s % cadence.every == 0) || move.lands || at_end) snapshot();
    // Over ranks, the ranks stop at the same step: where any got a signal (each gets it at its
    // own moment).
    const int signal = agreed_signal(observer.stop_signal ? observer.stop_signal() : 0);
    const bool stop_on_drift = drift_passed && cadence.stop_on_drift;
    const bool stop_on_event = events.stop.has_value();
    const bool stopping =
        !at_end && ((cadence.stop_after > 0 && outcome.steps >= cadence.stop_after) ||
                    signal != 0 || stop_on_drift || stop_on_event);
    if (stop_on_event && !at_end && !(cadence.every > 0 && s % cadence.every == 0) && !move.lands)
      snapshot();  // the state the exit names, for the user to see
    if (s % cadence.checkpoint_every == 0 || at_end || stopping) checkpoint();
    if (stop_on_drift && !at_end)
      stop_together(RunError(fmt::format("stopped by --stop-on-drift at step {} (t = {}) after "
                                         "a checkpoint: the relative energy drift reached {:.3g}, "
                                         "past --max-drift {:g} (--resume continues)",
                                         warning.step, warning.time, warning.drift,
                                         cadence.max_drift)));
    if (stop_on_event) {
      writer.drain();
      stop_together(RunError(fmt::format("stopped at step {}: {}; a checkpoint and a snapshot "
                                         "were written (--resume continues)",
                                         s, events.stop->text)));
    }
    if (observer.progress) {
      SimProgress p;
      p.steps_done = s - start_steps;
      p.steps_total = planned;
      p.seconds = seconds_since(t0);
      p.time = sim.clock().time();
      p.t_end = cadence.t_end;
      observer.progress(p);
    }
    if (stopping) {
      outcome.stopped_early = true;
      outcome.signal = signal;
      break;
    }
  }
  writer.drain();
  outcome.time = sim.clock().time();
  if (store) outcome.snapshots = static_cast<std::int64_t>(store->snapshots().size());
  outcome.drift_warning = warning.raised();
  outcome.bodies = static_cast<std::int64_t>(sim.size());
  return outcome;
}

#define ORRERY_RUN_LOOP(Real)                                                              \
  template SimOutcome run_loop<Real>(Simulation<Real>&, RunStore*, const Diagnostics&,     \
                                     std::int64_t, const SimCadence&, DriftWarning,        \
                                     const SimObserver&);
ORRERY_RUN_LOOP(float)
ORRERY_RUN_LOOP(double)
ORRERY_RUN_LOOP(float128)
#undef ORRERY_RUN_LOOP

}  // namespace orrery
