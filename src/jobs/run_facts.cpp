// SPDX-License-Identifier: MIT
#include "jobs/run_facts.hpp"

#include <filesystem>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"

namespace orrery {

RunFacts read_run_facts(const std::string& run) {
  if (!is_run_folder(run))
    throw ParameterError("RUN", run, "a run folder of `orrery sim` (it holds run.h5)");
  RunFacts f;
  f.name = std::filesystem::path(run).lexically_normal().string();
  while (f.name.size() > 1 && f.name.back() == '/') f.name.pop_back();
  h5::Handle d = h5::open_file(run_description_path(run).string());
  const hid_t root = d.id();
  if (h5::has_attribute(root, "scene")) f.scene = h5::read_attribute(root, "scene").text;
  if (h5::has_attribute(root, "units")) f.units = h5::read_attribute(root, "units").text;
  if (h5::has_attribute(root, "scene.n")) f.scene_n = h5::read_attribute(root, "scene.n").integer;
  if (h5::has_attribute(root, "t-end")) f.t_end = h5::read_attribute(root, "t-end").reals.at(0);
  return f;
}

}  // namespace orrery
