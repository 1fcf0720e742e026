// SPDX-License-Identifier: MIT
// The C++ side of orrery.Simulation: the settings (a SimJob's engine, integrator, step,
// precision, backend), the units, and the SimulationCore (python/simulation_core.hpp) of the
// particles, made again when particles are added or a setting changes. Its Python face:
// simulation_binding.cpp.
#pragma once

#include <memory>
#include <string>

#include "bindings.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "simulation_core.hpp"

namespace orrery::python {

// N values (one a body), or N×3 rows where `three` (a single row for N = 1), from any array
// numpy makes of `value`; ParameterError naming `name` for another shape, what is not numbers,
// complex numbers, or a value that is not finite.
std::vector<double> per_body(const py::handle& value, std::size_t n, bool three, const char* name);
// ParameterError unless every mass is finite and >= 0 (0: a test particle).
void require_masses(const std::vector<double>& masses);

class PySimulation {
 public:
  // No particles yet: G and softening of the arrays to be added, and the settings.
  PySimulation(double g, double softening, const py::kwargs& settings);
  // A scene with its parameters; the keywords that are settings go to the simulation.
  static PySimulation scene(const std::string& name, const py::kwargs& kwargs);
  // A particle file, a run's snapshot (from its time, with its dt) or a run (its newest).
  static PySimulation load(const std::string& path, const py::kwargs& settings);

  // N bodies more: masses (N), positions and velocities (N×3; no velocities: at rest), and
  // per-particle softening (N) or None, radii (N, for collisions) or None. Or, where `elements` (a, e, ...) are given instead of
  // positions, each body on its orbit about `primary` (python/simulation_orbits.hpp).
  void add(const py::handle& mass, const py::handle& position, const py::handle& velocity,
           const py::handle& softening, const py::handle& primary = py::none(),
           const py::dict& elements = {}, const py::handle& radius = py::none());

  // Writes the whole simulation to `path` (an HDF5 file, io/checkpoint_file.hpp's with the
  // settings, G, softening and units beside it, and the particles as a particle file has them):
  // load() makes of it a simulation that continues bit for bit.
  void save(const std::string& path, bool overwrite);
  // Whether `path` is a file save() wrote.
  static bool is_saved(const std::string& path);
  // Another simulation with this one's settings and state, continuing as it would.
  PySimulation copy();
  // Removes the body at `index` (negative: from the end); the stepper starts afresh.
  void remove(std::int64_t index);
  // Moves to the centre-of-mass frame: X = 0, V = 0 (REBOUND's move_to_com); the stepper starts
  // afresh.
  void move_to_com();

  // Settings given by keyword (engine, integrator, dt, ...) checked together, the simulation
  // made again with them.
  void change(const py::dict& settings);

  const SimJob& job() const { return job_; }
  double g() const { return g_; }
  double softening() const { return softening_; }
  const std::string& units() const { return units_; }
  // Length, time and mass units by name (a sequence of three, or "au, yr, msun"; REBOUND's
  // table, physics/unit_system.hpp): G becomes theirs. Only before the first body is added;
  // ParameterError naming "units" otherwise, or for names not in the table.
  void set_units(const py::handle& value);
  double t_end() const { return t_end_; }
  const Diagnostics& initial() const { return initial_; }
  const SimClock& clock() const { return core_ ? core_->clock() : clock_; }
  void set_dt(double dt);
  std::size_t size() const { return core_ ? core_->size() : 0; }
  // InputError while there are no particles, RunError while another thread steps it.
  SimulationCore& core();

  // Marks the simulation as stepping while the GIL is released: add(), change(), set_dt() and
  // core() refuse meanwhile (another thread's add() would free the state being stepped).
  // Made and ended with the GIL held, so the flag needs no lock of its own.
  class Stepping {
   public:
    explicit Stepping(PySimulation& sim);
    ~Stepping() { sim_.stepping_ = false; }
    Stepping(const Stepping&) = delete;
    Stepping& operator=(const Stepping&) = delete;

   private:
    PySimulation& sim_;
  };
  // Within a step's heartbeat (integrate(t, heartbeat)): the stepping simulation may be read.
  class Heartbeat {
   public:
    explicit Heartbeat(PySimulation& sim) : sim_(sim) { sim_.heartbeat_ = true; }
    ~Heartbeat() { sim_.heartbeat_ = false; }
    Heartbeat(const Heartbeat&) = delete;
    Heartbeat& operator=(const Heartbeat&) = delete;

   private:
    PySimulation& sim_;
  };
  const std::shared_ptr<SimulationCore>& shared_core() const { return core_; }

 private:
  static PySimulation load_saved(const std::string& path, const py::kwargs& settings);
  void apply_settings(const py::dict& settings);
  void rebuild(const SimJob& job, const Particles<double>& p);
  void require_idle() const;

  SimJob job_;
  double g_ = 1.0, softening_ = 0.0;
  std::string source_, units_;
  double t_end_ = 0.0;  // the scene's or the file's suggestion; 0: none
  SimClock clock_;      // while there are no particles
  Diagnostics initial_;
  std::shared_ptr<SimulationCore> core_;
  bool stepping_ = false;
  bool heartbeat_ = false;
};

}  // namespace orrery::python
