// SPDX-License-Identifier: MIT
#include "orrery/io/divergence_map_file.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/core/version.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/param_attributes.hpp"

namespace orrery {

namespace {
const std::string kFormat = "orrery divergence map";
}

std::string encode_divergence_map_file(const std::string& name, const DivergenceMapParams& params,
                                       Precision precision, const DivergenceMap& map) {
  {
    h5::Handle file = h5::create_memory_file(name);
    const hsize_t dims[2] = {static_cast<hsize_t>(map.height), static_cast<hsize_t>(map.width)};
    h5::write_dataset<std::int32_t>(file.id(), "counts", map.counts, dims);
    h5::write_dataset<std::uint8_t>(file.id(), "nonfinite", map.nonfinite, dims);

    write_param_attributes(file.id(), divergence_map_fields(), params);
    h5::write_attribute(file.id(), "format", kFormat);
    h5::write_attribute(file.id(), "precision", to_string(precision));
    h5::write_attribute(file.id(), "backend", map.info.backend);
    h5::write_attribute(file.id(), "kernel", map.info.kernel);
    h5::write_attribute(file.id(), "threads", std::int64_t{map.info.threads});
    h5::write_attribute(file.id(), "wall_time_s", map.info.wall_seconds);
    h5::write_attribute(file.id(), "pixel_steps", map.pixel_steps);
    h5::write_attribute(file.id(), "nonfinite_pixels", map.nonfinite_pixels);
    h5::write_attribute(file.id(), "orrery_version", version());
    h5::write_attribute(file.id(), "git_hash", git_hash());
    return h5::file_image(file.id());
  }
}

void write_divergence_map_file(const std::filesystem::path& path,
                               const DivergenceMapParams& params, Precision precision,
                               const DivergenceMap& map) {
  write_file_atomically(path, encode_divergence_map_file(path.string(), params, precision, map));
}

StoredDivergenceMap read_divergence_map_file(const std::filesystem::path& path) {
  h5::Handle file = h5::open_file(path.string());
  if (!h5::has_attribute(file.id(), "format") ||
      h5::read_attribute(file.id(), "format").text != kFormat)
    throw InputError(fmt::format("'{}' is not an orrery divergence map", path.string()));
  StoredDivergenceMap s;
  s.params = read_param_attributes(file.id(), divergence_map_fields());
  const std::string precision = h5::read_attribute(file.id(), "precision").text;
  const auto& names = precision_names();
  const auto named = std::find(names.begin(), names.end(), precision);
  if (named == names.end())
    throw InputError(fmt::format("'{}': precision '{}' is not a precision of orrery",
                                 path.string(), precision));
  s.precision = static_cast<Precision>(named - names.begin());
  std::vector<hsize_t> dims;
  s.map.counts = h5::read_dataset<std::int32_t>(file.id(), "counts", &dims);
  s.map.nonfinite = h5::read_dataset<std::uint8_t>(file.id(), "nonfinite");
  if (dims.size() != 2 || dims[0] != static_cast<hsize_t>(s.params.height) ||
      dims[1] != static_cast<hsize_t>(s.params.width))
    throw InputError(fmt::format("'{}': counts do not have the shape [height][width]",
                                 path.string()));
  s.map.width = s.params.width;
  s.map.height = s.params.height;
  s.map.pixel_steps = h5::read_attribute(file.id(), "pixel_steps").integer;
  s.map.nonfinite_pixels = h5::read_attribute(file.id(), "nonfinite_pixels").integer;
  s.map.info.backend = h5::read_attribute(file.id(), "backend").text;
  s.map.info.kernel = h5::read_attribute(file.id(), "kernel").text;
  s.map.info.threads = static_cast<int>(h5::read_attribute(file.id(), "threads").integer);
  s.map.info.wall_seconds = h5::read_attribute(file.id(), "wall_time_s").reals.at(0);
  s.orrery_version = h5::read_attribute(file.id(), "orrery_version").text;
  s.git_hash = h5::read_attribute(file.id(), "git_hash").text;
  return s;
}

}  // namespace orrery
