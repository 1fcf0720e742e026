// SPDX-License-Identifier: MIT
// A time step of a large system x'' = a(x) whose state lives on the system's device.
// Each family (explicit Runge–Kutta, symplectic splitting, ...) has one generic array stepper
// driven by the same coefficient tables as its register stepper.
//
// The contract:
// - step() reports what it did (integrate/step_report.hpp); a rejected step leaves x, v and the
//   stepper's own state exactly as they were.
// - The stepper's own state (what it keeps between steps: accelerations for first-same-as-last,
//   multistep history, a predictor) belongs to the x and v it last stepped. save() copies it to
//   the host; load() puts a saved state back, after which the next step gives the bits the saving
//   stepper's next step would have given. Whoever replaces x or v from outside calls load() with
//   the state saved with them, or clear().
// - clear() forgets the state: the next step starts the method afresh from x and v. For a method
//   whose state is a function of x alone (kept a(x)) that gives the same bits as continuing; for
//   one with history it does not, which is why checkpoints save the state instead.
#pragma once

#include <span>

#include "orrery/integrate/second_order_system.hpp"
#include "orrery/integrate/step_report.hpp"
#include "orrery/integrate/stepper_state.hpp"

namespace orrery {

template <class Real>
class ArrayStepper {
 public:
  virtual ~ArrayStepper() = default;
  // Tries to advance positions x and velocities v (3N arrays on the system's device) by h.
  virtual StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                                DeviceBuffer<Real>& v, Real h) = 0;
  // Replaces `state` with this stepper's own state (copied from the system's device).
  virtual void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const = 0;
  // Takes a state save() wrote (onto the system's device); throws InputError for one it cannot
  // have written.
  virtual void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) = 0;
  virtual void clear() = 0;
  // A stepper that carries the state in coordinates of its own between steps (whfast, unless in
  // safe mode) may leave x and v behind it: behind() says so, and synchronize() then writes the
  // state at the end of the last step to x and v, its own state unchanged (the steps after give
  // the same bits whether or not it was called). Whoever reads x or v after step() calls it
  // first (Simulation does); the positions in x are those of the step's last force evaluation.
  // clear() and load() on a stepper that is behind start it from x and v as they are.
  virtual bool behind() const { return false; }
  virtual void synchronize(SecondOrderSystem<Real>& /*system*/, DeviceBuffer<Real>& /*x*/,
                           DeviceBuffer<Real>& /*v*/) {}
  // G and the masses of a system of point masses, for a method that splits off each body's
  // Kepler orbit (whfast); the others need only a(x) and ignore them. Simulation passes its
  // engine's whenever the bodies change.
  virtual void set_gravity(double /*g*/, std::span<const Real> /*mass*/) {}
};

}  // namespace orrery
