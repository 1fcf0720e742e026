// SPDX-License-Identifier: MIT
// orrery.Simulation's whole state (python/simulation_settings.hpp): save() and load() of it
// with the integrator's own state, copy(), and the changes that start the integrator afresh,
// remove() and move_to_com().
#include <algorithm>
#include <filesystem>
#include <span>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "simulation_settings.hpp"

namespace orrery::python {

namespace {

constexpr const char* kSavedFormat = "orrery simulation";

// The settings save() keeps: those a run stores but the step (the saved clock's dt is the next
// step, and a scene's simulation has no step of its own), and the exits.
bool is_saved_setting(const std::string& name) {
  return (is_stored_sim_field(name) && name != "dt") || name == "exit-min-distance" ||
         name == "exit-max-distance";
}

// Rows [N][3] of three columns, for the particle file's position and velocity.
std::vector<double> saved_rows(const std::vector<double>& a, const std::vector<double>& b,
                               const std::vector<double>& c) {
  std::vector<double> out(3 * a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out[3 * i] = a[i];
    out[3 * i + 1] = b[i];
    out[3 * i + 2] = c[i];
  }
  return out;
}

}  // namespace

bool PySimulation::is_saved(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || H5Fis_hdf5(path.c_str()) <= 0) return false;
  h5::Handle f = h5::open_file(path);
  return h5::has_attribute(f.id(), "format") &&
         h5::read_attribute(f.id(), "format").text == kSavedFormat;
}

void PySimulation::save(const std::string& path, bool overwrite) {
  require_idle();
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec))
    throw ParameterError("path", path,
                         "a file that does not exist yet (overwrite=True replaces it)");
  check_output_path("path", path);
  SimulationCore& c = core();
  const Particles<double> p = c.particles();
  const std::string image = c.saved(path, [&](hid_t root) {
    h5::write_attribute(root, "format", std::string(kSavedFormat));
    h5::write_attribute(root, "G", g_);
    h5::write_attribute(root, "softening", softening_);
    h5::write_attribute(root, "units", units_);
    h5::write_attribute(root, "t_end_suggested", t_end_);
    // What `orrery sim --input` reads of a snapshot: the step's size and an end time.
    h5::write_attribute(root, "t-end", std::max(t_end_, c.clock().time()));
    const hsize_t dims[2] = {p.size(), 3};
    h5::write_dataset<double>(root, "position", saved_rows(p.x, p.y, p.z), dims);
    h5::write_dataset<double>(root, "velocity", saved_rows(p.vx, p.vy, p.vz), dims);
    const double initial[2] = {initial_.time, initial_.energy_total};
    h5::write_attribute(root, "initial_time_energy", std::span<const double>(initial, 2));
    h5::Handle settings = h5::create_group(root, "settings");
    for (const auto& f : sim_job_fields())
      if (is_saved_setting(f.name)) write_param_attribute(settings.id(), f.name, f.get(job_));
  });
  write_file_atomically(path, image, overwrite ? IfExists::replace : IfExists::refuse);
}

PySimulation PySimulation::load_saved(const std::string& path, const py::kwargs& kwargs) {
  h5::Handle f = h5::open_file(path);
  const hid_t root = f.id();
  PySimulation sim(h5::read_attribute(root, "G").reals.at(0),
                   h5::read_attribute(root, "softening").reals.at(0), {});
  sim.source_ = "'" + path + "'";
  sim.units_ = h5::read_attribute(root, "units").text;
  sim.t_end_ = h5::read_attribute(root, "t_end_suggested").reals.at(0);
  {
    h5::Handle settings = h5::open_group(root, "settings");
    for (const auto& field : sim_job_fields())
      if (is_saved_setting(field.name) && h5::has_attribute(settings.id(), field.name))
        field.set(sim.job_, read_param_attribute(settings.id(), field));
  }
  sim.core_ = load_simulation_core(sim.job_, path, sim.g_, sim.softening_);
  sim.clock_ = sim.core_->clock();
  sim.initial_ = sim.core_->diagnostics();
  const auto initial = h5::read_attribute(root, "initial_time_energy").reals;
  if (initial.size() == 2) sim.initial_.time = initial[0], sim.initial_.energy_total = initial[1];
  if (!kwargs.empty()) sim.change(kwargs);  // other settings: the stepper starts afresh
  return sim;
}

PySimulation PySimulation::copy() {
  require_idle();
  PySimulation twin = *this;
  if (core_) twin.core_ = core_->copy(job_, g_, softening_);
  return twin;
}

void PySimulation::remove(std::int64_t index) {
  require_idle();
  const auto n = static_cast<std::int64_t>(size());
  const std::int64_t k = index < 0 ? n + index : index;
  if (k < 0 || k >= n)
    throw ParameterError("index", std::to_string(index),
                         "the index of a body, 0 to " + std::to_string(n - 1) + " (or -" +
                             std::to_string(n) + " to -1 from the end)");
  Particles<double> p = core_->particles();
  auto drop = [k](auto& a) {
    if (!a.empty()) a.erase(a.begin() + k);
  };
  for (auto* a : {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass, &p.softening, &p.radius})
    drop(*a);
  drop(p.id);
  const double offset = core_->energy_offset();
  rebuild(job_, p);
  if (core_) core_->set_energy_offset(offset);
}

void PySimulation::move_to_com() {
  require_idle();
  Particles<double> p = core().particles();
  const CentreOfMass c = centre_of_mass(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] -= c.position.x, p.y[i] -= c.position.y, p.z[i] -= c.position.z;
    p.vx[i] -= c.velocity.x, p.vy[i] -= c.velocity.y, p.vz[i] -= c.velocity.z;
  }
  const double offset = core_->energy_offset();
  rebuild(job_, p);
  core_->set_energy_offset(offset);
  initial_ = core_->diagnostics();
}

}  // namespace orrery::python
