// SPDX-License-Identifier: MIT
// How an orrery.Simulation is made: from a scene, from arrays (add) or from a particle file or
// run, with the settings of `orrery sim` that concern the simulation itself (its engine,
// integrator, step, precision and backend).
#include "simulation_settings.hpp"

#include <pybind11/stl.h>

#include "interrupt.hpp"
#include "simulation_orbits.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/memory_budget.hpp"
#include "orrery/jobs/memory_estimate.hpp"
#include "orrery/jobs/simulation_of_job.hpp"
#include "orrery/nbody/coinciding_particles.hpp"
#include "orrery/physics/unit_system.hpp"
#include "orrery/scenes/dynamical_time.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::python {

namespace {

// What add() holds beside the simulation while it copies: mass, position, velocity and
// softening (8 doubles a body) as numpy's contiguous copies, as vectors, and the particles so
// far as a copy of 8 doubles a body.
constexpr double kAddedBytesPerBody = 3 * 8 * sizeof(double);

// The sim job's parameters that concern the simulation itself, not a run's files and cadence.
const std::vector<std::string>& setting_keywords() {
  static const std::vector<std::string> k{
      "engine",       "theta",     "multipole", "integrator", "dt",      "tolerance", "block_eta",
      "block_length", "precision", "threads",   "backend",    "devices", "cpu_kernel", "corrector",
      "ias15_criterion", "whfast_safe_mode", "collisions", "collision_search",
      "exit_min_distance", "exit_max_distance"};
  return k;
}

bool is_setting(const std::string& keyword) {
  const auto& k = setting_keywords();
  return std::find(k.begin(), k.end(), keyword) != k.end();
}

// A step where the particles suggest one (as for a particle file), else 0.
double suggested_dt(const Particles<double>& p, double g) {
  const double t_dyn = p.size() >= 2 ? dynamical_time(p, g) : 0.0;
  return std::isfinite(t_dyn) && t_dyn > 0 ? power_of_two_floor(t_dyn / 100.0) : 0.0;
}

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

// `value` as an array of numbers; ParameterError for what numpy cannot make one of.
Doubles numbers(const py::handle& value, const char* name) {
  // Complex numbers would be cast to their real parts without a word.
  const py::array raw = py::array::ensure(value);
  if (!raw) PyErr_Clear();
  if (raw && raw.dtype().kind() == 'c')
    throw ParameterError(name, "complex numbers", "real numbers");
  Doubles a = Doubles::ensure(value);
  if (!a) {
    PyErr_Clear();
    throw ParameterError(name, py::str(value), "an array of numbers");
  }
  return a;
}

std::string shape_of(const Doubles& a) { return py::str(a.attr("shape")); }

}  // namespace

std::vector<double> per_body(const py::handle& value, std::size_t n, bool three, const char* name) {
  Doubles a = numbers(value, name);
  if (three && a.size() == 3 && n == 1) a = a.reshape({1, 3});
  const bool fits =
      three ? a.ndim() == 2 && a.shape(0) == static_cast<py::ssize_t>(n) && a.shape(1) == 3
            : a.ndim() == 1 && a.shape(0) == static_cast<py::ssize_t>(n);
  if (!fits)
    throw ParameterError(name, "an array of shape " + shape_of(a),
                         "an array of shape (" + std::to_string(n) + (three ? ", 3)" : ",)"));
  std::vector<double> values(a.data(), a.data() + a.size());
  for (const double x : values)
    if (!std::isfinite(x)) throw ParameterError(name, py::str(py::float_(x)), "finite numbers");
  return values;
}

void require_masses(const std::vector<double>& masses) {
  for (const double x : masses)
    if (!(x >= 0) || !std::isfinite(x))
      throw ParameterError("mass", py::str(py::float_(x)),
                           "finite masses >= 0 (0: a test particle, which feels but does not pull)");
}

PySimulation::PySimulation(double g, double softening, const py::kwargs& settings)
    : g_(g), softening_(softening), source_("the arrays") {
  if (!(g > 0) || !std::isfinite(g))
    throw ParameterError("G", py::str(py::float_(g)), "a finite number > 0");
  if (!(softening >= 0) || !std::isfinite(softening))
    throw ParameterError("softening", py::str(py::float_(softening)), "a finite number >= 0");
  apply_settings(settings);
}

void PySimulation::apply_settings(const py::dict& settings) {
  SimJob job = job_;
  for (auto [key, value] : settings) {
    const std::string k = key.cast<std::string>();
    if (!is_setting(k)) throw py::type_error("Simulation: unexpected keyword argument '" + k + "'");
    set_field(job, sim_job_fields(), k, value);
  }
  check_simulation_choices(job);
  resolved_simulation_choices(job, softening_);
  job_ = job;
  if (job.dt > 0) clock_.dt = job.dt;
}

PySimulation PySimulation::scene(const std::string& name, const py::kwargs& kwargs) {
  py::dict settings;
  SceneSettings scene;
  const auto specs = scene_parameter_specs();
  for (auto [key, value] : kwargs) {
    const std::string k = key.cast<std::string>();
    if (is_setting(k)) {
      settings[key] = value;
      continue;
    }
    const auto spec = std::find_if(specs.begin(), specs.end(),
                                   [&](const ParamSpec& s) { return keyword_of(s.name) == k; });
    ParamSpec guess;
    guess.name = k;
    guess.kind = py::isinstance<py::int_>(value) ? ParamKind::Integer : ParamKind::Real;
    scene.emplace_back(spec != specs.end() ? spec->name : k,
                       param_value_of(spec != specs.end() ? *spec : guess, value));
  }
  {  // the memory the scene will take, refused before it is made as the CLI refuses it
    SimJob probe;
    for (auto [key, value] : settings)
      set_field(probe, sim_job_fields(), key.cast<std::string>(), value);
    probe.scene = name;
    probe.scene_settings = scene;
    check_sim_memory(probe);
  }
  const InitialConditions ic = make_scene(name, scene);
  PySimulation sim(ic.g, ic.softening, {});
  sim.source_ = "scene " + name;
  sim.units_ = ic.units;
  sim.t_end_ = ic.t_end;
  sim.clock_.dt = ic.dt;
  sim.apply_settings(settings);
  sim.rebuild(sim.job_, ic.particles);
  sim.initial_ = sim.core().diagnostics();
  return sim;
}

PySimulation PySimulation::load(const std::string& path, const py::kwargs& kwargs) {
  if (is_saved(path)) return load_saved(path, kwargs);
  SimJob in;
  in.input = path;
  const SimStart input = read_sim_input(in);
  PySimulation sim(input.ic.g, input.ic.softening, {});
  sim.source_ = "'" + path + "'";
  sim.units_ = input.ic.units;
  sim.t_end_ = input.t_end;
  sim.clock_.t = input.start_time;
  sim.clock_.dt = input.dt;
  sim.apply_settings(kwargs);
  sim.rebuild(sim.job_, input.ic.particles);
  sim.initial_ = sim.core().diagnostics();
  return sim;
}

void PySimulation::rebuild(const SimJob& job, const Particles<double>& p) {
  SimClock clock = core_ ? core_->clock() : clock_;
  if (!(clock.dt > 0)) clock.dt = suggested_dt(p, g_);
  if (p.size() == 0) {
    core_.reset();
  } else {
    check_no_coinciding_particles(p, softening_, job.precision, source_);
    core_ = make_simulation_core(job, p, g_, softening_, clock);
  }
  job_ = job;
  clock_ = clock;
}

void PySimulation::change(const py::dict& settings) {
  require_idle();
  const SimJob before = job_;
  apply_settings(settings);
  if (core_) {
    try {
      const double offset = core_->energy_offset();
      rebuild(job_, core_->particles());
      core_->set_energy_offset(offset);
    } catch (...) {
      job_ = before;
      throw;
    }
  }
  if (settings.contains("dt")) set_dt(job_.dt);
}

void PySimulation::set_dt(double dt) {
  if (!(dt != 0) || !std::isfinite(dt))
    throw ParameterError("dt", py::str(py::float_(dt)),
                         "a finite number other than 0 (< 0: steps backwards in time)");
  require_idle();
  job_.dt = std::abs(dt);  // the job's first step; the clock's carries the direction
  if (core_)
    core_->set_dt(dt);
  else
    clock_.dt = dt;
}

void PySimulation::set_units(const py::handle& value) {
  require_idle();
  UnitSystem units;
  if (py::isinstance<py::str>(value)) {
    units = parse_units(value.cast<std::string>());
  } else {
    std::vector<std::string> names;
    try {
      names = value.cast<std::vector<std::string>>();
    } catch (const py::cast_error&) {
      throw ParameterError("units", py::str(value), unit_names_accepted());
    }
    units = parse_units(names);
  }
  // REBOUND's rule: the bodies' numbers are in the units they were given in, and G would
  // change under them.
  if (size() > 0)
    throw ParameterError("units", describe(units),
                         "units set before the first body is added (this simulation has " +
                             std::to_string(size()) + ")");
  g_ = gravitational_constant(units);
  units_ = describe(units);
}

void PySimulation::require_idle() const {
  if (stepping_ && heartbeat_)
    throw RunError("the simulation is being integrated: its heartbeat may read it and write its "
                   "arrays in place, not add, remove or change settings");
  if (stepping_)
    throw RunError("the simulation is stepping in another thread: wait for its step() or "
                   "integrate() to return");
}

PySimulation::Stepping::Stepping(PySimulation& sim) : sim_(sim) {
  sim.require_idle();
  sim.stepping_ = true;
}

SimulationCore& PySimulation::core() {
  if (!heartbeat_) require_idle();
  if (!core_) throw InputError("the simulation has no particles yet: add them with add()");
  return *core_;
}

void PySimulation::add(const py::handle& mass, const py::handle& position,
                       const py::handle& velocity, const py::handle& softening,
                       const py::handle& primary, const py::dict& elements,
                       const py::handle& radius) {
  require_idle();
  // The memory first, from the count alone: a broadcast array of 10^9 rows costs nothing until
  // it is copied below.
  if (const py::array raw = py::array::ensure(mass)) {
    const auto n = static_cast<std::int64_t>(raw.size());
    check_memory("add() of " + std::to_string(n) + " bodies",
                 sim_memory_bytes(job_, static_cast<std::int64_t>(size()) + n) +
                     kAddedBytesPerBody * static_cast<double>(n));
  } else {
    PyErr_Clear();
  }
  Doubles m = numbers(mass, "mass");
  if (m.ndim() > 1) throw ParameterError("mass", "an array of shape " + shape_of(m), "N masses");
  const std::size_t n = static_cast<std::size_t>(m.size());
  if (n == 0) throw ParameterError("mass", "an empty array", "one mass or more");
  const std::vector<double> masses(m.data(), m.data() + n);
  require_masses(masses);
  const bool by_elements = !elements.empty();
  if (by_elements && !(position.is_none() && velocity.is_none()))
    throw ParameterError(position.is_none() ? "velocity" : "position", "given with orbital elements",
                         "either positions and velocities or orbital elements (a or P, e, ...)");
  if (!by_elements && !primary.is_none())
    throw ParameterError("primary", py::str(primary),
                         "orbital elements with it (a or P, e, inc, ...): positions need none");
  if (!by_elements && position.is_none())
    throw ParameterError("position", "none given",
                         "positions (N, 3), or orbital elements (a or P, e, inc, ...)");
  Particles<double> p = core_ ? core_->particles() : Particles<double>{};
  const std::size_t first = p.size();
  if (!softening.is_none() && first > 0 && p.softening.empty())
    throw ParameterError("softening", "per-particle values",
                         "none: the particles added before have none");
  std::uint64_t next_id = 0;
  for (const auto id : p.id) next_id = std::max(next_id, id + 1);
  if (by_elements) {
    append_orbits(p, masses, elements, primary, g_, clock().time());
  } else {
    const std::vector<double> x = per_body(position, n, true, "position");
    const std::vector<double> v = velocity.is_none() ? std::vector<double>(3 * n, 0.0)
                                                     : per_body(velocity, n, true, "velocity");
    p.resize(first + n);
    for (std::size_t i = 0; i < n; ++i) {
      for (auto [a, k] : {std::pair{&p.x, 0}, {&p.y, 1}, {&p.z, 2}})
        (*a)[first + i] = x[3 * i + k];
      for (auto [a, k] : {std::pair{&p.vx, 0}, {&p.vy, 1}, {&p.vz, 2}})
        (*a)[first + i] = v[3 * i + k];
      p.mass[first + i] = masses[i];
    }
  }
  for (std::size_t i = 0; i < n; ++i) p.id[first + i] = next_id + i;
  if (!softening.is_none()) {
    const std::vector<double> eps = per_body(softening, n, false, "softening");
    for (const double e : eps)
      if (!(e >= 0))
        throw ParameterError("softening", py::str(py::float_(e)), "finite lengths >= 0");
    p.softening.resize(first);  // resize() above padded the earlier bodies' softening with 0
    p.softening.insert(p.softening.end(), eps.begin(), eps.end());
  }
  if (!radius.is_none()) {
    const std::vector<double> r = per_body(radius, n, false, "r");
    for (const double x : r)
      if (!(x >= 0)) throw ParameterError("r", py::str(py::float_(x)), "finite radii >= 0");
    p.radius.resize(first, 0.0);  // bodies added before without radii are points
    p.radius.insert(p.radius.end(), r.begin(), r.end());
  } else if (!p.radius.empty()) {
    p.radius.resize(first + n, 0.0);
  }
  const double offset = core_ ? core_->energy_offset() : 0.0;
  rebuild(job_, p);
  core_->set_energy_offset(offset);
  initial_ = core_->diagnostics();
}

}  // namespace orrery::python
