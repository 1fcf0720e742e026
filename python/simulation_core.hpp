// SPDX-License-Identifier: MIT
// The state behind orrery.Simulation: a Simulation<Real> (nbody/simulation.hpp) in the precision
// the user chose, behind one interface, with the steps of `orrery sim`
// (nbody/step_schedule.hpp). No Python here: the bindings hold the GIL, the arrays and the
// errors (simulation_binding.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <hdf5.h>

#include "orrery/core/particles.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/sim_clock.hpp"

namespace orrery::python {

// An array of the state in host memory the user may read and write in place: the positions or
// velocities (3N values [x..., y..., z...]) or the masses (N) of a float or double run on a
// host-memory engine. data is null where there is none (fp128, a GPU engine): the bindings
// then hand out copies.
struct HostArray {
  void* data = nullptr;
  std::size_t element_size = 0;  // 4 or 8
};

class SimulationCore {
 public:
  virtual ~SimulationCore() = default;

  virtual std::size_t size() const = 0;
  virtual const SimClock& clock() const = 0;
  virtual void set_dt(double dt) = 0;
  virtual std::string backend() = 0;  // where the forces are computed ("cpu", "cuda:0")

  // One accepted step of the clock's dt.
  virtual void step() = 0;
  // Steps to time t, landing on it as a run of `orrery sim` to t_end does; `between` is called
  // between steps and may throw to stop (the state is then that of the last step). After each
  // step the job's collisions are resolved and its exits checked (StepEventStop when one is
  // met, the state that of the step that met it); a merge changes size().
  // With `between_writes`, what `between` wrote in place is taken before the next step.
  virtual std::int64_t integrate(double t, const std::function<void()>& between,
                                 bool between_writes = false) = 0;

  virtual Diagnostics diagnostics() = 0;
  // The energy merges took (nbody/step_events.hpp), in diagnostics()'s total; merges so far.
  virtual double energy_offset() const = 0;
  virtual void set_energy_offset(double offset) = 0;
  virtual std::int64_t merged() const = 0;
  // The state in double precision (a copy).
  virtual Particles<double> particles() = 0;
  // Replaces positions, velocities or masses (N×3 rows, resp. N values, rounded to the run's
  // precision once).
  virtual void set_positions(const std::vector<double>& rows) = 0;
  virtual void set_velocities(const std::vector<double>& rows) = 0;
  virtual void set_masses(const std::vector<double>& m) = 0;
  // The accelerations (N×3 rows) and potentials (N) of the present state.
  virtual void forces(std::vector<double>& rows, std::vector<double>& potential) = 0;

  // The whole state — particles, clock, the stepper's own state (IAS15's predictor, whfast's
  // Jacobi coordinates, ...) and the energy offset — as the bytes of a checkpoint file
  // (io/checkpoint_file.hpp) named `name`, with what `more` writes at its root.
  virtual std::string saved(const std::string& name,
                            const std::function<void(hid_t)>& more) = 0;
  // Another simulation of `job` (this one's) with this state, which continues bit for bit as
  // this one would.
  virtual std::shared_ptr<SimulationCore> copy(const SimJob& job, double g, double softening) = 0;

  virtual HostArray positions() = 0;
  virtual HostArray velocities() = 0;
  virtual HostArray masses() = 0;
  // Compares the host arrays with their values after the last step: where they were written in
  // place, the simulation takes the new state (and its stepper starts afresh).
  virtual void take_writes() = 0;
};

// The simulation of `p` with the job's engine and integrator in its precision, from `clock`.
// The job's choices are checked (ParameterError naming the parameter); the clock's dt is the
// first step.
std::shared_ptr<SimulationCore> make_simulation_core(const SimJob& job, const Particles<double>& p,
                                                     double g, double softening, SimClock clock);

// The simulation saved in `path` (SimulationCore::saved) with `job` (its settings, as saved):
// it continues bit for bit as the saved one would.
std::shared_ptr<SimulationCore> load_simulation_core(const SimJob& job, const std::string& path,
                                                     double g, double softening);

}  // namespace orrery::python
