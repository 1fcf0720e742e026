// SPDX-License-Identifier: MIT
#include "io/diagnostics_attributes.hpp"

#include <span>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

void write_vec(hid_t g, const std::string& name, const Vec3d& v) {
  const double xs[3] = {v.x, v.y, v.z};
  h5::write_attribute(g, name, std::span<const double>(xs, 3));
}

Vec3d read_vec(hid_t g, const std::string& name) {
  const auto a = h5::read_attribute(g, name);
  if (a.reals.size() != 3) throw InputError(fmt::format("attribute '{}' is not a 3-vector", name));
  return {a.reals[0], a.reals[1], a.reals[2]};
}

}  // namespace

void write_diagnostics(hid_t g, const Diagnostics& d) {
  h5::write_attribute(g, "time", d.time);
  h5::write_attribute(g, "mass", d.mass);
  h5::write_attribute(g, "energy_kinetic", d.energy_kinetic);
  h5::write_attribute(g, "energy_potential", d.energy_potential);
  h5::write_attribute(g, "energy", d.energy_total);
  write_vec(g, "momentum", d.momentum);
  write_vec(g, "angular_momentum", d.angular_momentum);
  write_vec(g, "com_position", d.com_position);
  write_vec(g, "com_velocity", d.com_velocity);
  h5::write_attribute(g, "momentum_scale", d.momentum_scale);
  h5::write_attribute(g, "angular_momentum_scale", d.angular_momentum_scale);
  h5::write_attribute(g, "rms_radius", d.rms_radius);
}

Diagnostics read_diagnostics(hid_t g) {
  auto real = [&](const char* n) { return h5::read_attribute(g, n).reals.at(0); };
  Diagnostics d;
  d.time = real("time");
  d.mass = real("mass");
  d.energy_kinetic = real("energy_kinetic");
  d.energy_potential = real("energy_potential");
  d.energy_total = real("energy");
  d.momentum = read_vec(g, "momentum");
  d.angular_momentum = read_vec(g, "angular_momentum");
  d.com_position = read_vec(g, "com_position");
  d.com_velocity = read_vec(g, "com_velocity");
  d.momentum_scale = real("momentum_scale");
  d.angular_momentum_scale = real("angular_momentum_scale");
  d.rms_radius = real("rms_radius");
  return d;
}

}  // namespace orrery
