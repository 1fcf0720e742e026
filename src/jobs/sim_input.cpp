// SPDX-License-Identifier: MIT
// Where a new run's particles come from when `--input` names a file or a run, and the scene
// parameters a resumed run may be given again.
#include <array>
#include <cmath>
#include <fstream>

#include <fmt/format.h>

#include "jobs/sim_settings.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/param_attributes.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/physics/unit_system.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

bool is_hdf5(const fs::path& path) {
  static constexpr std::array<char, 8> kSignature{'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::array<char, 8> head{};
  std::ifstream in(path, std::ios::binary);
  in.read(head.data(), head.size());
  return in.gcount() == 8 && head == kSignature;
}

// A run's snapshot, or a simulation Python's Simulation.save wrote: either goes on from its
// time with its step and end time.
bool is_snapshot(hid_t root) {
  if (!h5::has_attribute(root, "format")) return false;
  const std::string format = h5::read_attribute(root, "format").text;
  return format == "orrery snapshot" || format == "orrery simulation";
}

}  // namespace

SimStart read_sim_input(const SimJob& job) {
  fs::path path = job.input;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (!is_run_folder(path))
      throw InputError(fmt::format("--input: '{}' is a folder but not an orrery run (it has no "
                                   "run.h5)",
                                   path.string()));
    const auto snapshots = run_snapshots(path);
    if (snapshots.empty())
      throw InputError(fmt::format("--input: the run '{}' has no snapshot", path.string()));
    path = snapshot_path(path, snapshots.back());
  }
  SimStart in;
  if (job.units.empty()) {
    in.ic = read_particle_file(path);
  } else {
    UnitSystem units;
    try {
      units = parse_units(job.units);
    } catch (const ParameterError& e) {
      throw e.renamed("--units");
    }
    in.ic = read_particle_file(path, "", gravitational_constant(units));
    in.ic.units = fmt::format("{} (G = {:.17g})", describe(units), in.ic.g);
  }
  in.dt = in.ic.dt;
  in.t_end = in.ic.t_end;
  in.start_time = in.ic.time;
  if (is_hdf5(path)) {
    h5::Handle file = h5::open_file(path.string());
    if (is_snapshot(file.id())) {
      // A snapshot goes on from its time, with its run's step and end time (integers read as
      // the numbers they are, what is not a finite number refused).
      auto real = [&](const char* name) {
        const h5::Attribute a = h5::read_attribute(file.id(), name);
        const bool one = a.type == h5::Attribute::Type::Integer ||
                         (a.type != h5::Attribute::Type::Text && a.reals.size() == 1);
        const double x = a.type == h5::Attribute::Type::Integer ? static_cast<double>(a.integer)
                         : one ? a.reals[0]
                               : std::nan("");
        if (!std::isfinite(x))
          throw ParameterError(fmt::format("{}:/ attribute '{}'", path.string(), name),
                               one ? fmt::format("{}", x) : "not one number", "a finite number");
        return x;
      };
      in.start_time = real("time");
      in.dt = real("dt");
      in.t_end = real("t-end");
    }
  }
  for (const auto& [name, value] : job.scene_settings) {
    if (name != "softening")
      throw ParameterError("--" + name, format_param_value(value),
                           "no scene parameter with --input but --softening (the file holds the "
                           "particles)");
    in.ic.softening = require_real("--softening", value, RealRule::NonNegative);
    in.ic.parameters.emplace_back("softening", value);
  }
  return in;
}

void check_resumed_scene_settings(hid_t root, const SimJob& job) {
  const auto specs = scene_parameter_specs();
  for (const auto& [name, value] : job.scene_settings) {
    const std::string attribute = "scene." + name;
    if (!h5::has_attribute(root, attribute))
      throw ParameterError("--" + name, format_param_value(value),
                           "nothing: the run's scene has no such parameter");
    ParamSpec spec;
    for (const auto& s : specs)
      if (s.name == name) spec = s;
    spec.name = attribute;
    const ParamValue stored = read_param_attribute(root, spec);
    if (stored != value)
      throw ParameterError("--" + name, format_param_value(value),
                           fmt::format("the run's own {} ({}), or nothing: --resume continues "
                                       "the run as it was made",
                                       name, format_param_value(stored)));
  }
}

}  // namespace orrery
