// SPDX-License-Identifier: MIT
// One gravitating system being integrated: its state on a force engine's device, the array
// stepper that advances it, and the clock. step() is the whole order of a step (the stepper
// asks the engine for forces and updates the state in place); everything else — outputs,
// checkpoints, diagnostics — reads the state between steps.
//
// Time is t = base + k·dt (k steps of dt since `base`), never a running sum, so a run resumed
// from a checkpoint reproduces the uninterrupted run's times bit for bit; a shortened last step
// starts a new base.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "orrery/core/particles.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

struct SimClock {
  double base = 0.0;           // time at the last change of step size
  std::int64_t since_base = 0;  // steps of dt since then
  std::int64_t steps = 0;       // steps since the run began
  double dt = 0.0;
  double time() const { return base + static_cast<double>(since_base) * dt; }
};

// Where a state first stopped being finite.
struct NonFinite {
  std::size_t particle;
  std::uint64_t id;
  const char* what;  // "position" or "velocity"
  double value;
};

template <class Real>
class Simulation {
 public:
  Simulation(Particles<Real> particles, std::unique_ptr<ForceEngine<Real>> engine,
             std::unique_ptr<ArrayStepper<Real>> stepper, SimClock clock);

  // One step of the clock's dt. The clock moves only when the stepper accepts the step.
  StepReport<Real> step();
  // One step of whatever length reaches `time` (a shortened last step); `time` becomes the
  // clock's new base.
  StepReport<Real> step_to(double time);

  // The stepper's own state (integrate/array_stepper.hpp), for a checkpoint; and putting a saved
  // one back, after which the next step continues the saving run bit for bit.
  StepperState<Real> stepper_state();
  void load_stepper_state(const StepperState<Real>& state);

  const SimClock& clock() const { return clock_; }
  std::size_t size() const { return particles_.size(); }
  ForceEngine<Real>& engine() { return *engine_; }

  // The state on the host (positions and velocities copied from the device).
  const Particles<Real>& particles();
  Diagnostics diagnostics();
  std::optional<NonFinite> first_nonfinite();

 private:
  void download();

  Particles<Real> particles_;
  bool host_current_ = true;
  std::unique_ptr<ForceEngine<Real>> engine_;
  std::unique_ptr<ArrayStepper<Real>> stepper_;
  DeviceBuffer<Real> x_, v_;
  std::vector<Real> scratch_;
  SimClock clock_;
};

}  // namespace orrery
