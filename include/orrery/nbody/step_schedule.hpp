// SPDX-License-Identifier: MIT
// Where a simulation's steps go: regular steps of the clock's dt toward the next target — the
// next output time k·T (with an output interval T) or t_end, whichever comes first — and the
// step that would reach or pass a target shortened to land on it exactly (a regular step that
// ends within rounding of it lands too). Output times are products k·T, never sums, so they do not
// depend on the path to them, and the next one is found from the clock's time alone: a resumed
// run needs no more than its clock to continue the schedule. Every face that advances a
// Simulation (the run of `orrery sim`, the Python module) steps through step_on_schedule(), so
// they take the same steps.
#pragma once

#include <cstdint>
#include <string>

#include "orrery/nbody/sim_clock.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

struct StepSchedule {
  double t_end;
  double every_time;  // output interval T; 0: none
  double slack;       // times closer than this are one time (rounding of t_end and dt)

  // A schedule to t_end without output times, its slack from t_end and the clock's step.
  static StepSchedule to(double t_end, const SimClock& clock);

  // The first output time after t (by more than the slack), or t_end.
  double next_target(double t) const;
  // Steps go the way of the clock's dt: a negative dt integrates backwards, to a t_end before
  // the clock's time (without output times).
  bool finished(const SimClock& c) const {
    return (c.dt < 0 ? -c.remaining(t_end) : c.remaining(t_end)) <= slack;
  }
};

struct StepMove {
  double h;
  bool lands;  // the step ends on `target`
  double target;
};

StepMove next_move(const SimClock& c, const StepSchedule& s);

// The steps from `clock` to the end, when every step is accepted as asked.
std::int64_t planned_steps(SimClock c, const StepSchedule& s);

// One accepted step along the schedule (the stepper's rejections tried again with its smaller
// suggestion), and the move it made. Throws RunError when the step size falls below 1e-13 of
// the run's time scale or the stepper rejects 64 steps in a row. The caller checks the state
// (sim.first_nonfinite()) and names the culprit with where_nonfinite().
template <class Real>
StepMove step_on_schedule(Simulation<Real>& sim, const StepSchedule& s);

// "the state became non-finite at step 12 (t = 0.5): particle 3 (id 3) has position component nan"
std::string where_nonfinite(const NonFinite& bad, const SimClock& clock);

}  // namespace orrery
