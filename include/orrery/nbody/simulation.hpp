// SPDX-License-Identifier: MIT
// One gravitating system being integrated: its state on a force engine's device, the array
// stepper that advances it, and the clock (nbody/sim_clock.hpp). step() is the whole order of a
// step (the stepper asks the engine for forces and updates the state in place); everything
// else — outputs, checkpoints, diagnostics — reads the state between steps. The run loop
// (src/jobs/sim_snapshot_loop.cpp) chooses each step's size; a checkpoint holds the particles, the
// clock and the stepper's state, and a Simulation made from them continues bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "orrery/core/particles.hpp"
#include "orrery/nbody/body_share.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/sim_clock.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

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

  // A step of h; when the stepper accepts it the clock advances by h, and takes the stepper's
  // suggested next step as its dt where that differs from h.
  StepReport<Real> step(double h);
  // A step of h that ends on `time` (h = clock().remaining(time), or a regular step that ends
  // within rounding of it): when accepted the clock is set to `time` exactly.
  StepReport<Real> step_onto(double time, double h);

  // The stepper's own state (integrate/array_stepper.hpp), for a checkpoint; and putting a saved
  // one back, after which the next step continues the saving run bit for bit.
  StepperState<Real> stepper_state();
  void load_stepper_state(const StepperState<Real>& state);

  const SimClock& clock() const { return clock_; }
  // The size of the next regular step.
  void set_dt(double dt) { clock_.dt = dt; }
  std::size_t size() const { return particles_.size(); }
  ForceEngine<Real>& engine() { return *engine_; }

  // Shares the bodies with the other processes of a job (nbody/body_share.hpp): this Simulation
  // holds a slice of them (its engine computes their forces from every body), and from now on
  // particles(), stepper_state(), load_stepper_state(), diagnostics() and first_nonfinite() are
  // collective and speak of the whole system: the whole on the process that writes (empty
  // Particles and state elsewhere), a whole state taken in, diagnostics and the culprit of a
  // non-finite state on every process.
  void share_bodies(std::unique_ptr<BodyShare<Real>> share);
  bool shared() const { return share_ != nullptr; }

  // The state on the host (positions and velocities copied from the device).
  const Particles<Real>& particles();
  // The state where the engine keeps it (3N values [x..., y..., z...], on engine().device()),
  // and the masses on the host, for a face that reads or writes them in place; whoever writes
  // them calls state_changed() before the next step or read.
  DeviceBuffer<Real>& positions() {
    synchronize();
    return x_;
  }
  DeviceBuffer<Real>& velocities() {
    synchronize();
    return v_;
  }
  // Brings x and v to the clock's time where the stepper carries the state in coordinates of its
  // own (integrate/array_stepper.hpp, behind()); every read above and below calls it, so only a
  // face that keeps views of x or v across steps calls it itself. It changes no later bit.
  void synchronize();
  std::vector<Real>& masses() { return particles_.mass; }
  // After the state was written from outside: the engine takes the masses again, the host copy
  // is refreshed when next read, and the stepper starts afresh (its own state belongs to the
  // state it last stepped: integrate/array_stepper.hpp).
  void state_changed();
  // Takes a new state, of any number of bodies (a merge removed one, a face added or removed
  // some): the engine takes its bodies, and the stepper starts afresh. Not while shared.
  void replace_particles(Particles<Real> particles);
  // From now on replace_particles() keeps the replaced state's buffers (positions, velocities,
  // masses) alive with this Simulation, for a face that handed out views of them (Python's numpy
  // arrays): a view then reads the state before the change, never freed memory.
  void retain_replaced_buffers() { retain_replaced_ = true; }
  // The energy taken out of the system by events (merges, nbody/step_events.hpp), added to the
  // diagnostics' total energy so that it stays the conserved one (REBOUND's energy_offset).
  double energy_offset() const { return energy_offset_; }
  void set_energy_offset(double offset) { energy_offset_ = offset; }
  Diagnostics diagnostics();
  std::optional<NonFinite> first_nonfinite();

 private:
  StepReport<Real> take(double h);
  void load_bodies();  // particles_ to the engine and the device; the stepper afresh
  void download();
  std::optional<NonFinite> local_nonfinite();  // in this process's bodies

  Particles<Real> particles_;
  bool host_current_ = true;
  std::unique_ptr<ForceEngine<Real>> engine_;
  std::unique_ptr<ArrayStepper<Real>> stepper_;
  DeviceBuffer<Real> x_, v_;
  std::vector<Real> scratch_;
  SimClock clock_;
  std::unique_ptr<BodyShare<Real>> share_;
  Particles<Real> whole_;  // the gathered system, while shared
  double energy_offset_ = 0.0;
  bool retain_replaced_ = false;
  std::vector<DeviceBuffer<Real>> retired_buffers_;
  std::vector<std::vector<Real>> retired_masses_;
};

}  // namespace orrery
