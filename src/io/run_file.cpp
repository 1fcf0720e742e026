// SPDX-License-Identifier: MIT
#include "orrery/io/run_file.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/io/atomic_file.hpp"

namespace orrery {

namespace {

// ---- Values in the run's own precision: fp32 and fp64 as themselves, fp128 as raw bytes.

template <class Real>
void write_exact(hid_t group, const std::string& name, const std::vector<Real>& values) {
  if constexpr (std::is_same_v<Real, float128>) {
    std::vector<std::uint8_t> bytes(values.size() * 16);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    const hsize_t dims[2] = {values.size(), 16};
    h5::write_dataset<std::uint8_t>(group, name, bytes, dims);
  } else {
    const hsize_t dims[1] = {values.size()};
    h5::write_dataset<Real>(group, name, values, dims);
  }
}

template <class Real>
std::vector<Real> read_exact(hid_t group, const std::string& name) {
  if constexpr (std::is_same_v<Real, float128>) {
    const auto bytes = h5::read_dataset<std::uint8_t>(group, name);
    std::vector<Real> values(bytes.size() / 16);
    std::memcpy(values.data(), bytes.data(), values.size() * 16);
    return values;
  } else {
    return h5::read_dataset<Real>(group, name);
  }
}

// ---- Diagnostics as attributes.

void write_vec(hid_t g, const std::string& name, const Vec3d& v) {
  const double xs[3] = {v.x, v.y, v.z};
  h5::write_attribute(g, name, std::span<const double>(xs, 3));
}

Vec3d read_vec(hid_t g, const std::string& name) {
  const auto a = h5::read_attribute(g, name);
  if (a.reals.size() != 3) throw InputError(fmt::format("attribute '{}' is not a 3-vector", name));
  return {a.reals[0], a.reals[1], a.reals[2]};
}

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

template <class Real>
std::vector<double> interleaved(const std::vector<Real>& a, const std::vector<Real>& b,
                                const std::vector<Real>& c) {
  std::vector<double> out(3 * a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out[3 * i] = static_cast<double>(a[i]);
    out[3 * i + 1] = static_cast<double>(b[i]);
    out[3 * i + 2] = static_cast<double>(c[i]);
  }
  return out;
}

template <class Real>
std::vector<double> widened(const std::vector<Real>& a) {
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<double>(a[i]);
  return out;
}

const char* kSlots[2] = {"a", "b"};

// The steps of a complete checkpoint in `slot`, or −1 when the slot is missing or incomplete.
std::int64_t checkpoint_steps(hid_t checkpoints, const char* slot) {
  if (!h5::exists(checkpoints, slot)) return -1;
  h5::Handle g = h5::open_group(checkpoints, slot);
  if (!h5::has_attribute(g.id(), "complete")) return -1;
  return h5::read_attribute(g.id(), "steps").integer;
}

}  // namespace

std::string snapshot_name(std::int64_t index) { return fmt::format("{:06}", index); }

void RunFile::create(const std::filesystem::path& path,
                     const std::function<void(hid_t root)>& describe, const Diagnostics& initial) {
  AtomicOutput out(path);
  {
    h5::Handle file = h5::create_file(out.temporary().string());
    describe(file.id());
    h5::Handle init = h5::create_group(file.id(), "initial_diagnostics");
    write_diagnostics(init.id(), initial);
    h5::create_group(file.id(), "snapshots");
    h5::create_group(file.id(), "checkpoints");
  }
  out.commit();
}

RunFile::RunFile(const std::filesystem::path& path)
    : path_(path), file_(h5::open_file_rw(path.string())) {
  for (const char* g : {"snapshots", "checkpoints", "initial_diagnostics"})
    if (!h5::exists(file_.id(), g))
      throw InputError(fmt::format("'{}' is not an orrery run file (no group '{}')",
                                   path.string(), g));
}

Diagnostics RunFile::initial_diagnostics() const {
  h5::Handle g = h5::open_group(file_.id(), "initial_diagnostics");
  return read_diagnostics(g.id());
}

std::vector<std::int64_t> RunFile::snapshots() const {
  h5::Handle g = h5::open_group(file_.id(), "snapshots");
  std::vector<std::int64_t> out;
  for (const auto& name : h5::child_names(g.id())) out.push_back(std::stoll(name));
  std::sort(out.begin(), out.end());
  return out;
}

template <class Real>
void RunFile::write_snapshot(std::int64_t index, const Particles<Real>& p, const SimClock& clock,
                             const Diagnostics& now, const Drift& drift) {
  h5::Handle all = h5::open_group(file_.id(), "snapshots");
  const std::string name = snapshot_name(index);
  if (h5::exists(all.id(), name)) h5::remove(all.id(), name);
  h5::Handle g = h5::create_group(all.id(), name);
  const hsize_t n = p.size();
  const hsize_t dims3[2] = {n, 3}, dims1[1] = {n};
  h5::write_dataset<double>(g.id(), "position", interleaved(p.x, p.y, p.z), dims3);
  h5::write_dataset<double>(g.id(), "velocity", interleaved(p.vx, p.vy, p.vz), dims3);
  h5::write_dataset<double>(g.id(), "mass", widened(p.mass), dims1);
  h5::write_dataset<std::uint64_t>(g.id(), "id", p.id, dims1);
  if (!p.softening.empty())
    h5::write_dataset<double>(g.id(), "softening", widened(p.softening), dims1);
  h5::write_attribute(g.id(), "step", clock.steps);
  for (const auto& q : diagnostics_quantities(now, drift))
    if (q.value.size() == 1)
      h5::write_attribute(g.id(), q.name, q.value[0]);
    else
      h5::write_attribute(g.id(), q.name, std::span<const double>(q.value));
  write_diagnostics(g.id(), now);  // time, energy and the scales, under their fixed names
  h5::flush(file_.id());
}

void RunFile::remove_snapshots_from(std::int64_t first) {
  h5::Handle all = h5::open_group(file_.id(), "snapshots");
  for (std::int64_t index : snapshots())
    if (index >= first) h5::remove(all.id(), snapshot_name(index));
  h5::flush(file_.id());
}

template <class Real>
void RunFile::write_checkpoint(const Checkpoint<Real>& c) {
  h5::Handle all = h5::open_group(file_.id(), "checkpoints");
  // Overwrite the older slot (or a missing or incomplete one); the newer stays intact.
  std::int64_t steps_in[2];
  for (int s = 0; s < 2; ++s) steps_in[s] = checkpoint_steps(all.id(), kSlots[s]);
  const int slot = steps_in[0] <= steps_in[1] ? 0 : 1;
  if (h5::exists(all.id(), kSlots[slot])) {
    h5::remove(all.id(), kSlots[slot]);
    h5::flush(file_.id());
  }
  h5::Handle g = h5::create_group(all.id(), kSlots[slot]);
  const auto& p = c.particles;
  write_exact(g.id(), "x", p.x);
  write_exact(g.id(), "y", p.y);
  write_exact(g.id(), "z", p.z);
  write_exact(g.id(), "vx", p.vx);
  write_exact(g.id(), "vy", p.vy);
  write_exact(g.id(), "vz", p.vz);
  write_exact(g.id(), "mass", p.mass);
  if (!p.softening.empty()) write_exact(g.id(), "softening", p.softening);
  const hsize_t dims1[1] = {p.size()};
  h5::write_dataset<std::uint64_t>(g.id(), "id", p.id, dims1);
  h5::write_attribute(g.id(), "time", c.clock.t);
  h5::write_attribute(g.id(), "time_error", c.clock.t_error);
  h5::write_attribute(g.id(), "steps", c.clock.steps);
  h5::write_attribute(g.id(), "dt", c.clock.dt);
  h5::write_attribute(g.id(), "next_snapshot", c.next_snapshot);
  {
    h5::Handle stepper = h5::create_group(g.id(), "stepper");
    h5::Handle arrays = h5::create_group(stepper.id(), "arrays");
    for (const auto& a : c.stepper.arrays()) write_exact(arrays.id(), a.name, a.values);
    h5::Handle scalars = h5::create_group(stepper.id(), "scalars");
    for (const auto& x : c.stepper.scalars())
      write_exact(scalars.id(), x.name, std::vector<Real>{x.value});
  }
  h5::flush(file_.id());
  h5::write_attribute(g.id(), "complete", std::int64_t{1});
  h5::flush(file_.id());
}

template <class Real>
std::optional<Checkpoint<Real>> RunFile::read_checkpoint() const {
  h5::Handle all = h5::open_group(file_.id(), "checkpoints");
  const std::int64_t a = checkpoint_steps(all.id(), kSlots[0]);
  const std::int64_t b = checkpoint_steps(all.id(), kSlots[1]);
  const int best = std::max(a, b) < 0 ? -1 : (a >= b ? 0 : 1);
  if (best < 0) return std::nullopt;
  h5::Handle g = h5::open_group(all.id(), kSlots[best]);
  Checkpoint<Real> c;
  auto& p = c.particles;
  p.x = read_exact<Real>(g.id(), "x");
  p.y = read_exact<Real>(g.id(), "y");
  p.z = read_exact<Real>(g.id(), "z");
  p.vx = read_exact<Real>(g.id(), "vx");
  p.vy = read_exact<Real>(g.id(), "vy");
  p.vz = read_exact<Real>(g.id(), "vz");
  p.mass = read_exact<Real>(g.id(), "mass");
  if (h5::exists(g.id(), "softening")) p.softening = read_exact<Real>(g.id(), "softening");
  p.id = h5::read_dataset<std::uint64_t>(g.id(), "id");
  c.clock.t = h5::read_attribute(g.id(), "time").reals.at(0);
  c.clock.t_error = h5::read_attribute(g.id(), "time_error").reals.at(0);
  c.clock.steps = h5::read_attribute(g.id(), "steps").integer;
  c.clock.dt = h5::read_attribute(g.id(), "dt").reals.at(0);
  c.next_snapshot = h5::read_attribute(g.id(), "next_snapshot").integer;
  h5::Handle stepper = h5::open_group(g.id(), "stepper");
  h5::Handle arrays = h5::open_group(stepper.id(), "arrays");
  for (const auto& name : h5::child_names(arrays.id()))
    c.stepper.set_array(name, read_exact<Real>(arrays.id(), name));
  h5::Handle scalars = h5::open_group(stepper.id(), "scalars");
  for (const auto& name : h5::child_names(scalars.id())) {
    const auto value = read_exact<Real>(scalars.id(), name);
    if (value.size() != 1)
      throw InputError(fmt::format("checkpoint: stepper scalar '{}' holds {} values", name,
                                   value.size()));
    c.stepper.set_scalar(name, value[0]);
  }
  return c;
}

#define ORRERY_RUN_FILE(Real)                                                                  \
  template void RunFile::write_snapshot<Real>(std::int64_t, const Particles<Real>&,             \
                                              const SimClock&, const Diagnostics&, const Drift&); \
  template void RunFile::write_checkpoint<Real>(const Checkpoint<Real>&);                        \
  template std::optional<Checkpoint<Real>> RunFile::read_checkpoint<Real>() const;
ORRERY_RUN_FILE(float)
ORRERY_RUN_FILE(double)
ORRERY_RUN_FILE(float128)
#undef ORRERY_RUN_FILE

}  // namespace orrery
