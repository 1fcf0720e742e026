// SPDX-License-Identifier: MIT
// What happens between two steps of a planetary run besides the step, REBOUND's way
// (rebound/src/simulation.c: the collision search after each step, and run_heartbeat's exit
// checks): collisions found and resolved (nbody/collisions.hpp), and two exits that stop the run:
//
//   encounter: some pair is closer than d_min,  |x_i − x_j| < d_min  (REBOUND's
//              exit_min_distance, REB_STATUS_ENCOUNTER);
//   escape:    some body is farther than d_max from the centre of mass,
//              |x_i − X| > d_max,  M X = Σ m_k x_k  (REBOUND's exit_max_distance measures from
//              the origin, which is the centre of mass in the frame REBOUND users move to).
//
// The checks read the state (a copy for a stepper that keeps coordinates of its own), so they
// change no bit of the steps; merging and bouncing change the state, and the stepper starts
// afresh from the new one (Simulation::replace_particles).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/nbody/collisions.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

struct StepEvents {
  CollisionRule collisions = CollisionRule::none;
  CollisionSearch search = CollisionSearch::direct;
  double exit_min_distance = 0.0;  // 0: no encounter exit
  double exit_max_distance = 0.0;  // 0: no escape exit

  bool any() const {
    return collisions != CollisionRule::none || exit_min_distance > 0 || exit_max_distance > 0;
  }
};

enum class StopReason { collision, encounter, escape };

// Why a run stops, with the bodies (by id) and the time, and a sentence that says it.
struct EventStop {
  StopReason reason;
  std::uint64_t id_a = 0, id_b = 0;  // id_b: the other body of a pair (not for an escape)
  double distance = 0.0;
  double time = 0.0;
  std::string text;
};

// A run stopped by an event, for a face that tells the reasons apart (Python's Collision,
// Encounter and Escape).
class StepEventStop : public RunError {
 public:
  StepEventStop(const EventStop& stop, const std::string& message)
      : RunError(message), stop_(stop) {}
  const EventStop& stop() const { return stop_; }

 private:
  EventStop stop_;
};

// What the events of one step did.
struct EventsDone {
  std::int64_t merged = 0, bounced = 0;
  std::optional<EventStop> stop;
};

// After a step of h: collisions resolved as `events` says, then the exits checked. The energy a
// merge takes away is added to sim's energy offset (Simulation::energy_offset), so the
// diagnostics' total energy stays conserved through a merge, as REBOUND's energy_offset keeps it.
template <class Real>
EventsDone apply_step_events(Simulation<Real>& sim, const StepEvents& events, double h);

}  // namespace orrery
