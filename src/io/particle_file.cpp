// SPDX-License-Identifier: MIT
#include "orrery/io/particle_file.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/scenes/dynamical_time.hpp"

namespace orrery {

namespace {

// HDF5's format signature, at the start of every file without a user block.
bool has_hdf5_signature(const std::filesystem::path& path) {
  static constexpr std::array<char, 8> kSignature{'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::array<char, 8> head{};
  std::ifstream in(path, std::ios::binary);
  in.read(head.data(), head.size());
  return in.gcount() == 8 && head == kSignature;
}

void require_attribute(const std::string& where, double x, bool positive) {
  if (std::isnan(x)) return;  // absent
  if (!std::isfinite(x) || (positive ? !(x > 0.0) : !(x >= 0.0)))
    throw ParameterError(where, fmt::format("{}", x),
                         positive ? "a finite number > 0" : "a finite number >= 0");
}

}  // namespace

InitialConditions read_particle_file(const std::filesystem::path& path, const std::string& group,
                                     double units_g) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(fmt::format("'{}' is not a readable file", file));

  InitialConditions ic;
  ic.scene = "file";
  ic.frame = "as in the file";
  ic.parameters = {{"input", file}};
  if (has_hdf5_signature(path)) {
    HdfParticles h = read_particle_hdf5(path, group);
    require_attribute(fmt::format("{}:{} attribute 'G'", file, h.group), h.g, true);
    require_attribute(fmt::format("{}:{} attribute 'softening'", file, h.group), h.softening,
                      false);
    ic.particles = std::move(h.particles);
    // Its own G and the units' G agree to their printed digits, or the units are not the file's.
    constexpr double kSameG = 1e-12;
    if (!std::isnan(units_g) && !std::isnan(h.g) && !(std::abs(h.g - units_g) <= kSameG * units_g))
      throw ParameterError("--units", fmt::format("G = {}", units_g),
                           fmt::format("units whose G is the file's own, {} ({}:{} attribute "
                                       "'G')",
                                       h.g, file, h.group));
    ic.g = std::isnan(h.g) ? (std::isnan(units_g) ? 1.0 : units_g) : h.g;
    ic.softening = std::isnan(h.softening) ? 0.0 : h.softening;
    ic.time = std::isnan(h.time) ? 0.0 : h.time;
    ic.units = h.units.empty()
                   ? (std::isnan(h.g) ? "G = 1 (the file gives no G)" : "as in the file")
                   : h.units;
    ic.parameters.emplace_back("input-group", h.group);
  } else {
    if (!group.empty())
      throw ParameterError("input-group", group,
                           fmt::format("no group: '{}' is a CSV file, groups are HDF5's", file));
    ic.g = std::isnan(units_g) ? 1.0 : units_g;
    ic.particles = read_particle_csv(path, ic.g);
    ic.units = "G = 1 (a CSV file gives no units)";
  }
  if (ic.particles.size() < 2)
    throw InputError(fmt::format("'{}': {} particle{}; a run needs at least 2", file,
                                 ic.particles.size(), ic.particles.size() == 1 ? "" : "s"));
  // No estimate (0) where all particles sit at one point.
  const double t_dyn = dynamical_time(ic.particles, ic.g);
  if (std::isfinite(t_dyn) && t_dyn > 0.0) {
    ic.dt = power_of_two_floor(t_dyn / 100.0);
    ic.t_end = ic.time + 100.0 * t_dyn;
  }
  return ic;
}

}  // namespace orrery
