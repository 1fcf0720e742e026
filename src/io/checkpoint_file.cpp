// SPDX-License-Identifier: MIT
#include "orrery/io/checkpoint_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/hdf5_file.hpp"

namespace orrery {

namespace {

// The CRC-32 of a sequence of named values, fed in the order the file lists them.
class Crc {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const Bytef*>(data);
    while (n > 0) {
      const uInt chunk = n > (1u << 30) ? (1u << 30) : static_cast<uInt>(n);
      crc_ = crc32(crc_, p, chunk);
      p += chunk;
      n -= chunk;
    }
  }
  void name(const std::string& s) { bytes(s.data(), s.size() + 1); }
  template <class T>
  void value(const std::string& n, const T& x) {
    static_assert(std::is_trivially_copyable_v<T>);
    name(n);
    bytes(&x, sizeof x);
  }
  template <class T>
  void values(const std::string& n, const std::vector<T>& xs) {
    name(n);
    const std::uint64_t count = xs.size();
    bytes(&count, sizeof count);
    bytes(xs.data(), xs.size() * sizeof(T));
  }
  std::int64_t result() const { return static_cast<std::int64_t>(crc_); }

 private:
  uLong crc_ = crc32(0L, Z_NULL, 0);
};

template <class Real>
std::int64_t checksum(const Checkpoint<Real>& c) {
  Crc crc;
  const auto& p = c.particles;
  crc.values("x", p.x);
  crc.values("y", p.y);
  crc.values("z", p.z);
  crc.values("vx", p.vx);
  crc.values("vy", p.vy);
  crc.values("vz", p.vz);
  crc.values("mass", p.mass);
  crc.values("softening", p.softening);
  if (!p.radius.empty()) crc.values("radius", p.radius);  // absent from runs without radii
  crc.values("id", p.id);
  crc.value("time", c.clock.t);
  crc.value("time_error", c.clock.t_error);
  crc.value("steps", c.clock.steps);
  crc.value("dt", c.clock.dt);
  crc.value("next_snapshot", c.next_snapshot);
  crc.value("t_end", c.settings.t_end);
  crc.value("every", c.settings.every);
  crc.value("every_time", c.settings.every_time);
  crc.value("checkpoint_every", c.settings.checkpoint_every);
  crc.value("drift_warning.time", c.drift_warning.time);
  crc.value("drift_warning.step", c.drift_warning.step);
  crc.value("drift_warning.drift", c.drift_warning.drift);
  if (c.run_crc32 >= 0) crc.value("run_crc32", c.run_crc32);  // absent from older checkpoints
  if (c.ranks > 0) crc.value("ranks", c.ranks);  // absent where one process wrote it
  if (c.energy_offset != 0) crc.value("energy_offset", c.energy_offset);  // absent: no merges
  // In name order, as the file lists them.
  auto arrays = c.stepper.arrays();
  std::sort(arrays.begin(), arrays.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& a : arrays) crc.values("stepper/arrays/" + a.name, a.values);
  auto scalars = c.stepper.scalars();
  std::sort(scalars.begin(), scalars.end(), [](auto& a, auto& b) { return a.name < b.name; });
  for (const auto& s : scalars) crc.value("stepper/scalars/" + s.name, s.value);
  return crc.result();
}

// Values in the run's own precision: fp32 and fp64 as themselves, fp128 as raw bytes.
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

const char* const kParticleArrays[] = {"x", "y", "z", "vx", "vy", "vz", "mass"};

template <class Real>
std::vector<Real>& particle_array(Particles<Real>& p, int k) {
  std::vector<Real>* all[] = {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz, &p.mass};
  return *all[k];
}

double real_at(hid_t root, const char* name) {
  const h5::Attribute a = h5::read_attribute(root, name);
  if (a.reals.size() != 1) throw InputError(fmt::format("attribute '{}' is not one real", name));
  return a.reals[0];
}

std::int64_t integer_at(hid_t root, const char* name) {
  const h5::Attribute a = h5::read_attribute(root, name);
  if (a.type != h5::Attribute::Type::Integer)
    throw InputError(fmt::format("attribute '{}' is not an integer", name));
  return a.integer;
}

}  // namespace

template <class Real>
void write_checkpoint_file(const std::filesystem::path& path, const Checkpoint<Real>& c) {
  write_file_atomically(path, encode_checkpoint(path.string(), c));
}

template <class Real>
std::string encode_checkpoint(const std::string& name, const Checkpoint<Real>& c,
                              const std::function<void(hid_t)>& more) {
  std::string image;
  {
    h5::Handle file = h5::create_memory_file(name);
    const hid_t root = file.id();
    auto p = c.particles;  // particle_array needs a mutable reference
    for (int k = 0; k < 7; ++k) write_exact(root, kParticleArrays[k], particle_array(p, k));
    if (!p.softening.empty()) write_exact(root, "softening", p.softening);
    if (!p.radius.empty()) write_exact(root, "radius", p.radius);
    const hsize_t dims1[1] = {p.size()};
    h5::write_dataset<std::uint64_t>(root, "id", p.id, dims1);
    h5::write_attribute(root, "time", c.clock.t);
    h5::write_attribute(root, "time_error", c.clock.t_error);
    h5::write_attribute(root, "steps", c.clock.steps);
    h5::write_attribute(root, "dt", c.clock.dt);
    h5::write_attribute(root, "next_snapshot", c.next_snapshot);
    h5::write_attribute(root, "t_end", c.settings.t_end);
    h5::write_attribute(root, "every", c.settings.every);
    h5::write_attribute(root, "every_time", c.settings.every_time);
    h5::write_attribute(root, "checkpoint_every", c.settings.checkpoint_every);
    if (c.drift_warning.raised()) {
      const double w[3] = {c.drift_warning.time, static_cast<double>(c.drift_warning.step),
                           c.drift_warning.drift};
      h5::write_attribute(root, "drift_warning", std::span<const double>(w, 3));
    }
    {
      h5::Handle stepper = h5::create_group(root, "stepper");
      h5::Handle arrays = h5::create_group(stepper.id(), "arrays");
      for (const auto& a : c.stepper.arrays()) write_exact(arrays.id(), a.name, a.values);
      h5::Handle scalars = h5::create_group(stepper.id(), "scalars");
      for (const auto& x : c.stepper.scalars())
        write_exact(scalars.id(), x.name, std::vector<Real>{x.value});
    }
    if (c.run_crc32 >= 0) h5::write_attribute(root, "run_crc32", c.run_crc32);
    if (c.ranks > 0) h5::write_attribute(root, "ranks", c.ranks);
    if (c.energy_offset != 0) h5::write_attribute(root, "energy_offset", c.energy_offset);
    h5::write_attribute(root, "crc32", checksum(c));
    if (more) more(root);
    image = h5::file_image(root);
  }
  return image;
}

template <class Real>
Checkpoint<Real> read_checkpoint_file(const std::filesystem::path& path) {
  Checkpoint<Real> c;
  std::int64_t stored_crc = 0;
  try {
    h5::Handle file = h5::open_file(path.string());
    const hid_t root = file.id();
    auto& p = c.particles;
    for (int k = 0; k < 7; ++k) particle_array(p, k) = read_exact<Real>(root, kParticleArrays[k]);
    if (h5::exists(root, "softening")) p.softening = read_exact<Real>(root, "softening");
    if (h5::exists(root, "radius")) p.radius = read_exact<Real>(root, "radius");
    p.id = h5::read_dataset<std::uint64_t>(root, "id");
    c.clock.t = real_at(root, "time");
    c.clock.t_error = real_at(root, "time_error");
    c.clock.steps = integer_at(root, "steps");
    c.clock.dt = real_at(root, "dt");
    c.next_snapshot = integer_at(root, "next_snapshot");
    c.settings.t_end = real_at(root, "t_end");
    c.settings.every = integer_at(root, "every");
    c.settings.every_time = real_at(root, "every_time");
    c.settings.checkpoint_every = integer_at(root, "checkpoint_every");
    if (h5::has_attribute(root, "drift_warning")) {
      const auto w = h5::read_attribute(root, "drift_warning").reals;
      if (w.size() != 3) throw InputError("attribute 'drift_warning' is not 3 reals");
      c.drift_warning = {w[0], static_cast<std::int64_t>(w[1]), w[2]};
    }
    h5::Handle stepper = h5::open_group(root, "stepper");
    h5::Handle arrays = h5::open_group(stepper.id(), "arrays");
    for (const auto& name : h5::child_names(arrays.id()))
      c.stepper.set_array(name, read_exact<Real>(arrays.id(), name));
    h5::Handle scalars = h5::open_group(stepper.id(), "scalars");
    for (const auto& name : h5::child_names(scalars.id())) {
      const auto value = read_exact<Real>(scalars.id(), name);
      if (value.size() != 1)
        throw InputError(fmt::format("stepper scalar '{}' holds {} values", name, value.size()));
      c.stepper.set_scalar(name, value[0]);
    }
    if (h5::has_attribute(root, "run_crc32")) c.run_crc32 = integer_at(root, "run_crc32");
    if (h5::has_attribute(root, "ranks")) c.ranks = integer_at(root, "ranks");
    if (h5::has_attribute(root, "energy_offset")) c.energy_offset = real_at(root, "energy_offset");
    stored_crc = integer_at(root, "crc32");
  } catch (const std::exception& e) {
    throw InputError(fmt::format("'{}' cannot be read ({})", path.string(), e.what()));
  }
  if (checksum(c) != stored_crc)
    throw InputError(fmt::format("'{}' is damaged: its values do not match its CRC-32",
                                 path.string()));
  const std::size_t n = c.particles.mass.size();
  for (int k = 0; k < 7; ++k)
    if (particle_array(c.particles, k).size() != n || c.particles.id.size() != n ||
        (!c.particles.radius.empty() && c.particles.radius.size() != n))
      throw InputError(fmt::format("'{}' holds arrays of unequal lengths", path.string()));
  return c;
}

#define ORRERY_CHECKPOINT_FILE(Real)                                                         \
  template void write_checkpoint_file<Real>(const std::filesystem::path&,                    \
                                            const Checkpoint<Real>&);                        \
  template std::string encode_checkpoint<Real>(const std::string&, const Checkpoint<Real>&,  \
                                               const std::function<void(hid_t)>&);           \
  template Checkpoint<Real> read_checkpoint_file<Real>(const std::filesystem::path&);
ORRERY_CHECKPOINT_FILE(float)
ORRERY_CHECKPOINT_FILE(double)
ORRERY_CHECKPOINT_FILE(float128)
#undef ORRERY_CHECKPOINT_FILE

}  // namespace orrery
