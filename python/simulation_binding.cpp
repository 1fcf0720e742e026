// SPDX-License-Identifier: MIT
// orrery.Simulation's Python face: stepping without the GIL (Ctrl-C stops a long integrate
// between two steps), the state as numpy arrays, the diagnostics and saving. The arrays are
// views of the simulation's own memory where it lives on the host in fp32 or fp64: writing
// through one changes the next step (python/simulation_core.hpp notices the write), and each view
// keeps that memory alive through its base, a capsule holding the simulation. A GPU engine's
// state, or an fp128 one, comes as a read-only copy in float64; assigning the attribute
// (sim.position = ...) writes the state on every engine.
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>

#include "interrupt.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/run_limits.hpp"
#include "simulation_doc.hpp"
#include "simulation_orbits.hpp"
#include "simulation_settings.hpp"

namespace orrery::python {

namespace {

using Copy = std::vector<double> (*)(const Particles<double>&);

std::vector<double> position_rows(const Particles<double>& p) {
  return rows_of_columns(p.x, p.y, p.z);
}
std::vector<double> velocity_rows(const Particles<double>& p) {
  return rows_of_columns(p.vx, p.vy, p.vz);
}
std::vector<double> mass_values(const Particles<double>& p) { return p.mass; }

// The state as numpy sees it: a view of the host memory `h` (3N values [x..., y..., z...] seen
// as N×3 rows, or N values) whose base keeps the simulation alive, or a read-only copy.
py::array state_array(PySimulation& sim, HostArray h, bool three, Copy copy) {
  const auto n = static_cast<py::ssize_t>(sim.size());
  std::vector<py::ssize_t> shape{n};
  if (three) shape.push_back(3);
  if (n == 0) return py::array_t<double>(shape);
  if (h.data) {
    const auto size = static_cast<py::ssize_t>(h.element_size);
    std::vector<py::ssize_t> strides{size};
    if (three) strides.push_back(n * size);
    auto* keep = new std::shared_ptr<SimulationCore>(sim.shared_core());
    py::capsule base(keep,
                     [](void* p) { delete static_cast<std::shared_ptr<SimulationCore>*>(p); });
    const py::dtype type = size == 4 ? py::dtype::of<float>() : py::dtype::of<double>();
    return py::array(type, shape, strides, h.data, base);
  }
  py::array out = owned_array(copy(sim.core().particles()), shape);
  out.attr("flags").attr("writeable") = false;
  return out;
}

void require_dt(PySimulation& sim) {
  if (!(sim.clock().dt != 0))
    throw InputError("dt: none given, and the particles suggest none; set sim.dt");
}

py::object quantity(const std::vector<double>& v) {
  if (v.size() == 1) return py::float_(v[0]);
  return py::tuple(py::cast(v));
}

// Values written in place through the views are checked before they are stepped, as add()
// checks them: a negative mass or an infinite position is refused, not integrated.
void check_written(SimulationCore& core) {
  auto scan = [](HostArray h, std::size_t count, const char* name, bool positive) {
    if (!h.data) return;  // a copy: written only through the checked setters
    for (std::size_t i = 0; i < count; ++i) {
      const double x = h.element_size == 4 ? static_cast<const float*>(h.data)[i]
                                           : static_cast<const double*>(h.data)[i];
      if (!std::isfinite(x) || (positive && !(x >= 0)))
        throw ParameterError(name, py::str(py::float_(x)),
                             positive ? "finite masses >= 0" : "finite numbers");
    }
  };
  const std::size_t n = core.size();
  scan(core.positions(), 3 * n, "position", false);
  scan(core.velocities(), 3 * n, "velocity", false);
  scan(core.masses(), n, "mass", true);
}

void step(PySimulation& sim, std::int64_t n) {
  if (n < 1) throw ParameterError("n", std::to_string(n), "a number of steps >= 1");
  SimulationCore& core = sim.core();
  require_dt(sim);
  check_written(core);
  InterruptPoll poll;
  PySimulation::Stepping busy(sim);
  py::gil_scoped_release computing;
  core.step();
  for (std::int64_t i = 1; i < n; ++i) {
    poll();
    core.step();
  }
}

std::int64_t integrate(const py::object& self, double t, const py::object& heartbeat) {
  PySimulation& sim = self.cast<PySimulation&>();
  SimulationCore& core = sim.core();
  if (!std::isfinite(t))
    throw ParameterError("t", py::str(py::float_(t)), "a finite time");
  require_dt(sim);
  // REBOUND's rule: a time before the simulation's is reached backwards, the step's sign
  // following the way to t.
  const double dt = sim.clock().dt;
  if ((t < core.clock().time()) != (dt < 0)) sim.set_dt(-dt);
  // The CLI's limit: a run of more steps than this would never end.
  const double steps = std::ceil(std::abs(t - core.clock().time()) / std::abs(dt));
  if (!(steps <= kMaxRunSteps))
    throw ParameterError("t", py::str(py::float_(t)),
                         "a time that dt = " + std::string(py::str(py::float_(sim.clock().dt))) +
                             " reaches in at most 1e10 steps; this one takes " +
                             std::string(py::str(py::float_(steps))));
  check_written(core);
  InterruptPoll poll;
  PySimulation::Stepping busy(sim);
  if (heartbeat.is_none()) {
    py::gil_scoped_release computing;
    return core.integrate(t, std::ref(poll));
  }
  // REBOUND's heartbeat: called with the simulation after every step, which it may read (and
  // write in place through the arrays) but not change otherwise.
  auto between = [&] {
    poll();
    py::gil_scoped_acquire python;
    PySimulation::Heartbeat reading(sim);
    heartbeat(self);
  };
  py::gil_scoped_release computing;
  return core.integrate(t, between, true);
}

py::dict diagnostics(PySimulation& sim) {
  Diagnostics now;
  {
    SimulationCore& core = sim.core();
    PySimulation::Stepping busy(sim);
    py::gil_scoped_release computing;
    now = core.diagnostics();
  }
  py::dict out;
  for (const auto& q : diagnostics_quantities(now, drift_since(sim.initial(), now)))
    out[py::str(q.name)] = quantity(q.value);
  return out;
}

py::tuple forces(PySimulation& sim) {
  SimulationCore& core = sim.core();
  std::vector<double> a, phi;
  {
    PySimulation::Stepping busy(sim);
    py::gil_scoped_release computing;
    core.forces(a, phi);
  }
  const auto n = static_cast<py::ssize_t>(phi.size());
  return py::make_tuple(owned_array(std::move(a), {n, 3}), owned_array(std::move(phi), {n}));
}

// A setting as a property: read from the job, written through change().
template <class Get>
void setting(py::class_<PySimulation>& c, const char* name, Get get, const char* doc) {
  c.def_property(
      name, get,
      [name](PySimulation& s, py::object value) {
        py::dict d;
        d[name] = value;
        s.change(d);
      },
      doc);
}

// An array of the state as a property: a view (or a copy) to read, per_body() to write.
void state_property(py::class_<PySimulation>& c, const char* name,
                    HostArray (SimulationCore::*host)(), bool three, Copy copy,
                    void (SimulationCore::*set)(const std::vector<double>&), const char* doc) {
  c.def_property(
      name,
      [=](PySimulation& s) {
        return state_array(s, s.shared_core() ? (s.core().*host)() : HostArray{}, three, copy);
      },
      [=](PySimulation& s, const py::handle& v) {
        const std::vector<double> values = per_body(v, s.size(), three, name);
        if (!three) require_masses(values);
        (s.core().*set)(values);
      },
      doc);
}

}  // namespace

void bind_simulation(py::module_& m) {
  m.def(
      "forces",
      [](const py::handle& position, const py::handle& mass, double g, double softening,
         const py::kwargs& settings) {
        PySimulation sim(g, softening, settings);
        sim.add(mass, position, py::none(), py::none());
        return forces(sim);
      },
      py::arg("position"), py::arg("mass"), py::arg("G") = 1.0, py::arg("softening") = 0.0,
      R"(forces(position, mass, G=1.0, softening=0.0, **settings) -> (acceleration, potential)

The accelerations (N, 3) and potentials (N,) of bodies at `position` (N, 3) with masses (N,),
by any engine (engine='direct' or 'tree', theta, multipole), backend and precision, as
`orrery forces` computes them:
  a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2),
  phi_i = -G sum_j m_j / (|x_j - x_i|^2 + eps^2)^(1/2).)");

  py::class_<PySimulation> c(m, "Simulation", kSimulationDoc);
  c.def(py::init<double, double, const py::kwargs&>(), py::arg("G") = 1.0,
        py::arg("softening") = 0.0, kSimulationInitDoc)
      .def_static("scene", &PySimulation::scene, py::arg("name"), kSceneDoc)
      .def_static("load", &PySimulation::load, py::arg("path"), kLoadDoc)
      .def(
          "add",
          [](PySimulation& s, const py::handle& mass, const py::handle& position,
             const py::handle& velocity, const py::handle& softening, const py::handle& primary,
             const py::kwargs& elements) {
            // REBOUND's m= for mass=.
            py::dict rest;
            py::object m = py::reinterpret_borrow<py::object>(mass);
            py::object radius = py::none();  // REBOUND's r= (or radius=)
            for (auto [key, value] : elements) {
              const std::string k = key.cast<std::string>();
              if (k == "r" || k == "radius") {
                if (!radius.is_none())
                  throw ParameterError("r", py::str(value), "r= or radius=, not both");
                radius = py::reinterpret_borrow<py::object>(value);
                continue;
              }
              if (k != "m") {
                rest[key] = value;
                continue;
              }
              if (!mass.is_none())
                throw ParameterError("m", py::str(value), "mass= or m=, not both");
              m = py::reinterpret_borrow<py::object>(value);
            }
            if (m.is_none())
              throw ParameterError("mass", "none given", "mass= (or m=): one mass a body");
            s.add(m, position, velocity, softening, primary, rest, radius);
          },
          py::arg("mass") = py::none(), py::arg("position") = py::none(), py::arg("velocity") = py::none(),
          py::arg("softening") = py::none(), py::kw_only(), py::arg("primary") = py::none(),
          kAddDoc)
      .def(
          "orbits",
          [](PySimulation& s, const py::handle& primary) {
            return orbits_of(s.core().particles(), primary, s.g(), s.clock().time());
          },
          py::kw_only(), py::arg("primary") = py::none(), kOrbitsDoc)
      .def("step", &step, py::arg("n") = 1, kStepDoc)
      .def("integrate", &integrate, py::arg("t"), py::arg("heartbeat") = py::none(),
           kIntegrateDoc)
      .def(
          "energy",
          [](PySimulation& s) {
            SimulationCore& core = s.core();
            PySimulation::Stepping busy(s);
            py::gil_scoped_release computing;
            return core.diagnostics().energy_total;
          },
          kEnergyDoc)
      .def("diagnostics", &diagnostics, kDiagnosticsDoc)
      .def("forces", &forces, kForcesDoc)
      .def("save", &PySimulation::save, py::arg("path"), py::arg("overwrite") = false, kSaveDoc)
      .def("copy", &PySimulation::copy, kCopyDoc)
      .def("remove", &PySimulation::remove, py::arg("index"), kRemoveDoc)
      .def("move_to_com", &PySimulation::move_to_com, kMoveToComDoc)
      .def("__len__", &PySimulation::size)
      .def("__repr__", [](PySimulation& s) {
        return "<orrery.Simulation N=" + std::to_string(s.size()) +
               " t=" + std::string(py::str(py::float_(s.clock().time()))) +
               " engine=" + s.job().engine + " integrator=" + s.job().integrator +
               " precision=" + to_string(s.job().precision) + ">";
      });
  setting(
      c, "engine", [](const PySimulation& s) { return s.job().engine; },
      "force engine: 'direct' (all pairs) or 'tree' (Barnes-Hut)");
  setting(
      c, "integrator", [](const PySimulation& s) { return s.job().integrator; },
      "time integrator by name (orrery sim --list)");
  setting(
      c, "corrector", [](const PySimulation& s) { return s.job().corrector; },
      "whfast's symplectic corrector: 0 (none), 3, 5, 7, 11 or 17 (REBOUND's ri_whfast.corrector)");
  setting(
      c, "ias15_criterion", [](const PySimulation& s) { return s.job().ias15_criterion; },
      "ias15's step criterion: 'prs24' (Pham, Rein & Spiegel 2024, REBOUND's default) or "
      "'global' (Rein & Spiegel 2015)");
  setting(
      c, "whfast_safe_mode", [](const PySimulation& s) { return s.job().whfast_safe_mode; },
      "whfast: True converts to and from Jacobi coordinates and applies the corrector at every "
      "step (REBOUND's safe_mode = 1); False (the default) keeps them between steps");
  setting(
      c, "collisions", [](const PySimulation& s) { return s.job().collisions; },
      "what bodies that touch (radii: add(..., r=)) do after a step: 'none', 'merge' (mass and "
      "momentum kept), 'bounce' (hard spheres) or 'stop' (orrery.Collision is raised)");
  setting(
      c, "collision_search", [](const PySimulation& s) { return s.job().collision_search; },
      "'direct' (overlapping and approaching at the end of a step) or 'line' (the closest "
      "approach of straight paths over the step)");
  setting(
      c, "exit_min_distance", [](const PySimulation& s) { return s.job().exit_min_distance; },
      "> 0: orrery.Encounter is raised after a step where two bodies are closer (0: never)");
  setting(
      c, "exit_max_distance", [](const PySimulation& s) { return s.job().exit_max_distance; },
      "> 0: orrery.Escape is raised after a step where a body is farther from the centre of "
      "mass (0: never)");
  c.def_property_readonly(
      "radius",
      [](PySimulation& s) {
        Particles<double> p = s.core().particles();
        if (p.radius.empty()) p.radius.assign(p.size(), 0.0);
        const auto n = static_cast<py::ssize_t>(p.size());
        return owned_array(std::move(p.radius), {n});
      },
      "the bodies' radii, (N,) (a copy; 0: a point)");
  c.def_property_readonly(
      "merged", [](PySimulation& s) { return s.shared_core() ? s.core().merged() : 0; },
      "bodies merged into others so far (collisions='merge')");
  setting(
      c, "tolerance", [](const PySimulation& s) { return s.job().tolerance; },
      "> 0: step-size control of an embedded method (dt is then the first step); 0: fixed "
      "steps");
  setting(
      c, "backend",
      [](PySimulation& s) {
        return s.shared_core() ? s.core().backend() : to_string(s.job().backend);
      },
      "where the forces are computed: reads 'cpu' or 'cuda:0,...'; set 'cpu', 'cuda' or "
      "'auto'");
  setting(
      c, "precision", [](const PySimulation& s) { return to_string(s.job().precision); },
      "'fp64', 'fp32' or 'fp128' (fp128: the arrays are float64 copies)");
  c.def_property(
      "dt", [](const PySimulation& s) { return s.clock().dt; }, &PySimulation::set_dt,
      "the next regular step (an adaptive method changes it as it goes)");
  c.def_property_readonly(
      "time", [](const PySimulation& s) { return s.clock().time(); }, "the simulation time");
  c.def_property_readonly(
      "steps", [](const PySimulation& s) { return s.clock().steps; }, "steps taken");
  c.def_property_readonly("G", &PySimulation::g, "gravitational constant");
  c.def_property_readonly("softening", &PySimulation::softening, "global softening length");
  c.def_property(
      "units", &PySimulation::units,
      [](PySimulation& s, const py::handle& value) { s.set_units(value); },
      "the units: the scene's or the file's; set (\"au\", \"yr\", \"msun\") — REBOUND's "
      "names, any order — before adding bodies, and G becomes theirs (39.476926... for these)");
  c.def_property_readonly("t_end", &PySimulation::t_end,
                          "the end time the scene or file suggests (0: none)");
  state_property(c, "position", &SimulationCore::positions, true, &position_rows,
                 &SimulationCore::set_positions, kPositionDoc);
  state_property(c, "velocity", &SimulationCore::velocities, true, &velocity_rows,
                 &SimulationCore::set_velocities, "velocities, (N, 3): a view like position");
  state_property(c, "mass", &SimulationCore::masses, false, &mass_values,
                 &SimulationCore::set_masses, "masses, (N,): a view like position");
}

}  // namespace orrery::python
