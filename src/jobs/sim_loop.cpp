// SPDX-License-Identifier: MIT
// The run loop of `orrery sim`: steps, snapshots, checkpoints, the non-finite check, progress.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery {

namespace {

std::string where_nonfinite(const NonFinite& bad, const SimClock& clock) {
  return fmt::format("the state became non-finite at step {} (t = {}): particle {} (id {}) has "
                     "{} component {}",
                     clock.steps, clock.time(), bad.particle, bad.id, bad.what, bad.value);
}

}  // namespace

template <class Real>
SimOutcome run_loop(Simulation<Real>& sim, RunFile& file, const Diagnostics& initial,
                    std::int64_t next_snapshot, double t_end, std::int64_t every,
                    std::int64_t checkpoint_every, std::int64_t stop_after,
                    const SimObserver& observer) {
  const double dt = sim.clock().dt;
  // Regular steps while they do not pass t_end (within a rounding of t_end itself), then one
  // shortened step onto it.
  const double slack = 1e-12 * std::max(std::abs(t_end), dt);
  auto regular_left = [&] { return sim.clock().time() + dt <= t_end + slack; };
  const double remaining = t_end - sim.clock().time();
  const auto regular = static_cast<std::int64_t>(std::floor((remaining + slack) / dt));
  const std::int64_t planned =
      regular + (remaining - static_cast<double>(regular) * dt > slack ? 1 : 0);
  const std::int64_t start_steps = sim.clock().steps;
  const auto t0 = std::chrono::steady_clock::now();

  auto snapshot = [&]() {
    const Diagnostics now = sim.diagnostics();
    const Drift drift = drift_since(initial, now);
    file.write_snapshot(next_snapshot, sim.particles(), sim.clock(), now, drift);
    if (observer.snapshot) observer.snapshot(next_snapshot, now, drift);
    ++next_snapshot;
  };
  auto checkpoint = [&]() {
    file.write_checkpoint(Checkpoint<Real>{sim.particles(), sim.clock(), next_snapshot});
  };

  SimOutcome outcome;
  bool landed = false;
  while (!landed) {
    if (regular_left()) {
      sim.step();
    } else if (t_end - sim.clock().time() > slack) {
      sim.step_to(t_end);
      landed = true;
    } else {
      break;
    }
    if (auto bad = sim.first_nonfinite()) {
      std::string last = "none";
      const auto kept = file.snapshots();
      if (!kept.empty()) last = "/snapshots/" + snapshot_name(kept.back());
      throw RunError(fmt::format("{}; stopped, the last good snapshot is {}",
                                 where_nonfinite(*bad, sim.clock()), last));
    }
    const std::int64_t s = sim.clock().steps;
    ++outcome.steps;
    if (!regular_left() && t_end - sim.clock().time() <= slack) landed = true;
    if (s % every == 0 || landed) snapshot();
    const bool stopping = stop_after > 0 && outcome.steps >= stop_after && !landed;
    if (s % checkpoint_every == 0 || landed || stopping) checkpoint();
    if (observer.progress) {
      SimProgress p;
      p.steps_done = s - start_steps;
      p.steps_total = planned;
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      observer.progress(p);
    }
    if (stopping) {
      outcome.stopped_early = true;
      break;
    }
  }
  outcome.time = sim.clock().time();
  outcome.snapshots = static_cast<std::int64_t>(file.snapshots().size());
  return outcome;
}

template SimOutcome run_loop<float>(Simulation<float>&, RunFile&, const Diagnostics&, std::int64_t,
                                    double, std::int64_t, std::int64_t, std::int64_t,
                                    const SimObserver&);
template SimOutcome run_loop<double>(Simulation<double>&, RunFile&, const Diagnostics&,
                                     std::int64_t, double, std::int64_t, std::int64_t,
                                     std::int64_t, const SimObserver&);
template SimOutcome run_loop<float128>(Simulation<float128>&, RunFile&, const Diagnostics&,
                                       std::int64_t, double, std::int64_t, std::int64_t,
                                       std::int64_t, const SimObserver&);

}  // namespace orrery
