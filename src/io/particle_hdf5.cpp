// SPDX-License-Identifier: MIT
// The HDF5 half of io/particle_file.hpp.
#include <cmath>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/particle_file.hpp"

namespace orrery {

namespace {

struct Place {
  std::string file, group;  // group "/" or "/snapshots/000010"
  std::string operator()(const std::string& dataset) const {
    return fmt::format("{}:{}{}", file, group == "/" ? "/" : group + "/", dataset);
  }
};

std::string shape_text(const std::vector<hsize_t>& dims) {
  if (dims.empty()) return "a scalar";
  std::string s = "shape ";
  for (auto d : dims) s += fmt::format("[{}]", d);
  return s;
}

// A dataset of N values, or N rows of 3.
std::vector<double> read_reals(hid_t group, const Place& at, const std::string& name, std::size_t n,
                               bool vectors) {
  std::vector<hsize_t> dims;
  std::vector<double> values = h5::read_dataset<double>(group, name, &dims);
  const bool ok =
      vectors ? dims.size() == 2 && dims[0] == n && dims[1] == 3 : dims.size() == 1 && dims[0] == n;
  if (!ok)
    throw ParameterError(at(name), shape_text(dims),
                         vectors ? fmt::format("shape [{}][3], one row per particle", n)
                                 : fmt::format("shape [{}], one value per particle", n));
  return values;
}

void require(const Place& at, const std::string& name, std::size_t row, int column, double x,
             bool positive, bool non_negative) {
  const bool ok = std::isfinite(x) && (!positive || x > 0.0) && (!non_negative || x >= 0.0);
  if (ok) return;
  const std::string where = column < 0 ? fmt::format("{}[{}]", at(name), row)
                                       : fmt::format("{}[{}][{}]", at(name), row, column);
  throw ParameterError(where, fmt::format("{}", x),
                       positive       ? "a finite number > 0"
                       : non_negative ? "a finite number >= 0"
                                      : "a finite number");
}

std::vector<std::uint64_t> read_ids(hid_t group, const Place& at, std::size_t n) {
  h5::Handle d(H5Dopen2(group, "id", H5P_DEFAULT), H5Dclose);
  h5::Handle type(H5Dget_type(d.id()), H5Tclose);
  if (H5Tget_class(type.id()) != H5T_INTEGER)
    throw ParameterError(at("id"), "a dataset of another type than integers",
                         "integers, one per particle");
  std::vector<hsize_t> dims;
  std::vector<std::uint64_t> ids;
  if (H5Tget_sign(type.id()) == H5T_SGN_2) {
    const auto signed_ids = h5::read_dataset<std::int64_t>(group, "id", &dims);
    for (std::size_t i = 0; i < signed_ids.size(); ++i) {
      if (signed_ids[i] < 0)
        throw ParameterError(fmt::format("{}[{}]", at("id"), i), fmt::format("{}", signed_ids[i]),
                             "an integer >= 0");
      ids.push_back(static_cast<std::uint64_t>(signed_ids[i]));
    }
  } else {
    ids = h5::read_dataset<std::uint64_t>(group, "id", &dims);
  }
  if (dims.size() != 1 || dims[0] != n)
    throw ParameterError(at("id"), shape_text(dims),
                         fmt::format("shape [{}], one id per particle", n));
  std::unordered_map<std::uint64_t, std::size_t> first;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [it, fresh] = first.emplace(ids[i], i);
    if (!fresh)
      throw ParameterError(
          fmt::format("{}[{}]", at("id"), i), fmt::format("{}", ids[i]),
          fmt::format("an id not used before ({}[{}] has it)", at("id"), it->second));
  }
  return ids;
}

// A number attribute of the group, else of the root; NaN where neither has one. An integer
// attribute is the number it holds (numpy writes G = 2 as one); an attribute that is there but
// is not one finite number is refused, never taken as absent (G = 1, ε = 0, t = 0 instead).
double real_attribute(hid_t group, hid_t root, const Place& at, const std::string& name) {
  for (hid_t object : {group, root})
    if (h5::has_attribute(object, name)) {
      const std::string where = fmt::format("{}:{} attribute '{}'", at.file,
                                            object == group ? at.group : "/", name);
      h5::Attribute a;
      try {
        a = h5::read_attribute(object, name);
      } catch (const InputError&) {
        throw ParameterError(where, "a value of a type orrery does not read", "one number");
      }
      if (a.type == h5::Attribute::Type::Integer) return static_cast<double>(a.integer);
      if (a.type == h5::Attribute::Type::Text)
        throw ParameterError(where, fmt::format("the text \"{}\"", a.text), "one number");
      if (a.reals.size() != 1)
        throw ParameterError(where, fmt::format("{} numbers", a.reals.size()), "one number");
      if (!std::isfinite(a.reals[0]))
        throw ParameterError(where, fmt::format("{}", a.reals[0]), "a finite number");
      return a.reals[0];
    }
  return std::numeric_limits<double>::quiet_NaN();
}

std::string text_attribute(hid_t group, hid_t root, const std::string& name) {
  for (hid_t object : {group, root})
    if (h5::has_attribute(object, name)) {
      const h5::Attribute a = h5::read_attribute(object, name);
      if (a.type == h5::Attribute::Type::Text) return a.text;
    }
  return "";
}

}  // namespace

HdfParticles read_particle_hdf5(const std::filesystem::path& path, const std::string& group) {
  const std::string file = path.string();
  h5::Handle f = h5::open_file(file);
  h5::Handle root = h5::open_group(f.id(), "/");
  Place at{file, "/"};
  if (!group.empty()) {
    at.group = group.front() == '/' ? group : "/" + group;
    if (!h5::exists(f.id(), at.group))
      throw InputError(fmt::format("'{}' has no group '{}'", file, at.group));
  } else if (!h5::exists(f.id(), "mass") && h5::exists(f.id(), "snapshots")) {
    h5::Handle snapshots = h5::open_group(f.id(), "snapshots");
    const std::vector<std::string> names = h5::child_names(snapshots.id());
    if (names.empty()) throw InputError(fmt::format("'{}': group /snapshots is empty", file));
    at.group = "/snapshots/" + names.back();
  }
  h5::Handle g = h5::open_group(f.id(), at.group);
  for (const char* name : {"mass", "position", "velocity"})
    if (!h5::exists(g.id(), name))
      throw InputError(fmt::format(
          "{}:{} has no dataset '{}' (expected mass [N], position [N][3], velocity [N][3], "
          "optionally id [N], softening [N] and radius [N]{})",
          file, at.group, name,
          group.empty() && at.group == "/" ? ", at the root or in /snapshots/<name>" : ""));

  std::vector<hsize_t> dims;
  const std::vector<double> mass = h5::read_dataset<double>(g.id(), "mass", &dims);
  if (dims.size() != 1)
    throw ParameterError(at("mass"), shape_text(dims), "shape [N], one mass per particle");
  const std::size_t n = mass.size();
  const std::vector<double> position = read_reals(g.id(), at, "position", n, true);
  const std::vector<double> velocity = read_reals(g.id(), at, "velocity", n, true);

  HdfParticles out;
  out.group = at.group;
  Particles<double>& p = out.particles;
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    require(at, "mass", i, -1, mass[i], false, true);  // 0: a test particle
    for (int c = 0; c < 3; ++c) {
      require(at, "position", i, c, position[3 * i + c], false, false);
      require(at, "velocity", i, c, velocity[3 * i + c], false, false);
    }
    p.mass[i] = mass[i];
    p.x[i] = position[3 * i];
    p.y[i] = position[3 * i + 1];
    p.z[i] = position[3 * i + 2];
    p.vx[i] = velocity[3 * i];
    p.vy[i] = velocity[3 * i + 1];
    p.vz[i] = velocity[3 * i + 2];
    p.id[i] = i;
  }
  if (h5::exists(g.id(), "id")) p.id = read_ids(g.id(), at, n);
  if (h5::exists(g.id(), "softening")) {
    p.softening = read_reals(g.id(), at, "softening", n, false);
    for (std::size_t i = 0; i < n; ++i)
      require(at, "softening", i, -1, p.softening[i], false, true);
  }
  if (h5::exists(g.id(), "radius")) {
    p.radius = read_reals(g.id(), at, "radius", n, false);
    for (std::size_t i = 0; i < n; ++i) require(at, "radius", i, -1, p.radius[i], false, true);
  }
  out.g = real_attribute(g.id(), root.id(), at, "G");
  out.softening = real_attribute(g.id(), root.id(), at, "softening");
  out.time = real_attribute(g.id(), root.id(), at, "time");
  out.units = text_attribute(g.id(), root.id(), "units");
  return out;
}

}  // namespace orrery
