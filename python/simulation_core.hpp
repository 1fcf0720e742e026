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
  // between steps and may throw to stop (the state is then that of the last step).
  virtual std::int64_t integrate(double t, const std::function<void()>& between) = 0;

  virtual Diagnostics diagnostics() = 0;
  // The state in double precision (a copy).
  virtual Particles<double> particles() = 0;
  // Replaces positions, velocities or masses (N×3 rows, resp. N values, rounded to the run's
  // precision once).
  virtual void set_positions(const std::vector<double>& rows) = 0;
  virtual void set_velocities(const std::vector<double>& rows) = 0;
  virtual void set_masses(const std::vector<double>& m) = 0;
  // The accelerations (N×3 rows) and potentials (N) of the present state.
  virtual void forces(std::vector<double>& rows, std::vector<double>& potential) = 0;

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

}  // namespace orrery::python
