// SPDX-License-Identifier: MIT
// The run loop of `orrery sim`: steps, snapshots, checkpoints, the non-finite check, progress.
//
// Where the steps go: regular steps of the clock's dt toward the next target — the next output
// time k·T (with an output interval T) or t_end, whichever comes first — and the step that would
// reach or pass a target shortened to land on it exactly (a regular step that ends within
// rounding of it lands too). Output times are products k·T, never sums, so they do not depend on
// the path to them, and the next one is found from the clock's time alone: a resumed run needs
// no more than its clock to continue the schedule.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "jobs/background_writer.hpp"
#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

// Rejections in a row after which a run stops: a stepper that cannot find an acceptable step
// from its own suggestions this many times has failed, not hit a hard patch.
constexpr int kMaxRejectionsInARow = 64;
// From this many bodies on, files are written by a thread of their own while the run goes on (a
// snapshot of 1024 bodies is 64 kB and an fsync, a millisecond or more on a disk); below, a few
// bodies step faster than a thread wakes, so their files are written at once. Two jobs in
// flight: a snapshot and its checkpoint.
constexpr std::size_t kBodiesForAWriterThread = 1024;
constexpr std::size_t kJobsInFlight = 2;
// A step-size control that asks for steps below this fraction of the run's time scale is not
// following the motion any more (two bodies falling onto each other): the clock itself can barely
// resolve such steps, and the run would crawl without end.
constexpr double kSmallestStep = 1e-13;

struct Schedule {
  double t_end;
  double every_time;  // output interval T; 0: none
  double slack;       // times closer than this are one time (rounding of t_end and dt)

  // The first output time after t (by more than the slack), or t_end.
  double next_target(double t) const {
    if (every_time <= 0) return t_end;
    double k = std::floor((t + slack) / every_time) + 1;
    while (k * every_time <= t + slack) ++k;
    while (k > 1 && (k - 1) * every_time > t + slack) --k;
    const double out = k * every_time;
    return out < t_end - slack ? out : t_end;
  }
  bool finished(const SimClock& c) const { return c.remaining(t_end) <= slack; }
};

struct Move {
  double h;
  bool lands;     // the step ends on `target`
  double target;
};

Move next_move(const SimClock& c, const Schedule& s) {
  const double target = s.next_target(c.time());
  const double r = c.remaining(target);
  if (r > c.dt + s.slack) return {c.dt, false, target};
  if (r >= c.dt - s.slack) return {c.dt, true, target};
  return {r, true, target};
}

// The steps from `clock` to the end, when every step is accepted as asked. Without output times
// all but the last are regular steps, so their number follows from the time left: an adaptive
// method's small first step (ias15 from the Pythagorean scene's 2⁻¹⁶) would otherwise be
// counted out millions of times before the run begins.
std::int64_t planned_steps(SimClock c, const Schedule& s) {
  if (s.every_time <= 0) {
    const double left = c.remaining(s.t_end) - s.slack;
    if (left <= 0) return 0;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(left / c.dt)));
  }
  std::int64_t n = 0;
  while (!s.finished(c)) {
    const Move m = next_move(c, s);
    if (m.lands)
      c.land(m.target);
    else
      c.advance(m.h);
    ++n;
  }
  return n;
}

std::string drift_text(const DriftWarning& w, double limit) {
  return fmt::format("the relative energy drift reached {:.3g} at step {} (t = {}), past "
                     "--max-drift {:g}: the results may be wrong (a smaller --dt?)",
                     w.drift, w.step, w.time, limit);
}

}  // namespace

std::string where_nonfinite(const NonFinite& bad, const SimClock& clock) {
  return fmt::format("the state became non-finite at step {} (t = {}): particle {} (id {}) has "
                     "{} component {}",
                     clock.steps, clock.time(), bad.particle, bad.id, bad.what, bad.value);
}

template <class Real>
SimOutcome run_loop(Simulation<Real>& sim, RunStore& store, const Diagnostics& initial,
                    std::int64_t next_snapshot, const SimCadence& cadence, DriftWarning warning,
                    const SimObserver& observer) {
  const Schedule schedule{cadence.t_end, cadence.every_time,
                          1e-12 * std::max(std::abs(cadence.t_end), sim.clock().dt)};
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
    writer.post([&store, index = next_snapshot, p = sim.particles(), clock = sim.clock(), now,
                 drift, t_end = cadence.t_end, warning] {
      store.write_snapshot(index, p, clock, now, drift, t_end, warning);
    });
    if (observer.snapshot) observer.snapshot(next_snapshot, now, drift);
    ++next_snapshot;
  };
  auto checkpoint = [&]() {
    writer.post([&store, c = Checkpoint<Real>{sim.particles(), sim.clock(), sim.stepper_state(),
                                              next_snapshot, settings, warning}] {
      store.write_checkpoint(c);
    });
  };

  SimOutcome outcome;
  int rejected = 0;
  while (!schedule.finished(sim.clock())) {
    const Move move = next_move(sim.clock(), schedule);
    const StepReport<Real> report =
        move.lands ? sim.step_onto(move.target, move.h) : sim.step(move.h);
    const double scale = std::max(std::abs(cadence.t_end), std::abs(sim.clock().time()));
    if (sim.clock().dt < kSmallestStep * scale)
      throw RunError(fmt::format("the step size fell to {:.3g} at t = {} (below {:g} of the "
                                 "run's time scale): the integrator cannot follow the motion "
                                 "here — a close encounter (softening helps), or a --tolerance "
                                 "below what rounding lets its error estimate reach (a looser "
                                 "one helps); the last checkpoint is intact",
                                 sim.clock().dt, sim.clock().time(), kSmallestStep));
    if (!report.accepted) {
      if (++rejected == kMaxRejectionsInARow)
        throw RunError(fmt::format("the integrator rejected {} steps in a row at t = {}",
                                   rejected, sim.clock().time()));
      continue;
    }
    rejected = 0;
    if (auto bad = sim.first_nonfinite()) {
      writer.drain();  // what was good is on disk before the run names it
      std::string last = "none";
      const auto kept = store.snapshots();
      if (!kept.empty()) last = snapshot_path(store.folder(), kept.back()).string();
      throw RunError(fmt::format("{}; stopped, the last good snapshot is {}",
                                 where_nonfinite(*bad, sim.clock()), last));
    }
    const std::int64_t s = sim.clock().steps;
    ++outcome.steps;
    const bool at_end = schedule.finished(sim.clock());
    drift_passed = false;
    if ((cadence.every > 0 && s % cadence.every == 0) || move.lands || at_end) snapshot();
    const int signal = observer.stop_signal ? observer.stop_signal() : 0;
    const bool stop_on_drift = drift_passed && cadence.stop_on_drift;
    const bool stopping =
        !at_end && ((cadence.stop_after > 0 && outcome.steps >= cadence.stop_after) ||
                    signal != 0 || stop_on_drift);
    if (s % cadence.checkpoint_every == 0 || at_end || stopping) checkpoint();
    if (stop_on_drift && !at_end)
      throw RunError(fmt::format("stopped by --stop-on-drift at step {} (t = {}) after a "
                                 "checkpoint: the relative energy drift reached {:.3g}, past "
                                 "--max-drift {:g} (--resume continues)",
                                 warning.step, warning.time, warning.drift, cadence.max_drift));
    if (observer.progress) {
      SimProgress p;
      p.steps_done = s - start_steps;
      p.steps_total = planned;
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
  outcome.snapshots = static_cast<std::int64_t>(store.snapshots().size());
  outcome.drift_warning = warning.raised();
  return outcome;
}

#define ORRERY_RUN_LOOP(Real)                                                              \
  template SimOutcome run_loop<Real>(Simulation<Real>&, RunStore&, const Diagnostics&,     \
                                     std::int64_t, const SimCadence&, DriftWarning,        \
                                     const SimObserver&);
ORRERY_RUN_LOOP(float)
ORRERY_RUN_LOOP(double)
ORRERY_RUN_LOOP(float128)
#undef ORRERY_RUN_LOOP

}  // namespace orrery
