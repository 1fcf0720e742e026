// SPDX-License-Identifier: MIT
#include "orrery/scenes/scene_registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/scenes/disk.hpp"
#include "orrery/scenes/figure_eight.hpp"
#include "orrery/scenes/kepler.hpp"
#include "orrery/scenes/outer_solar_system.hpp"
#include "orrery/scenes/plummer.hpp"
#include "orrery/scenes/pythagorean.hpp"
#include "orrery/scenes/solar_system.hpp"
#include "orrery/scenes/two_galaxies.hpp"

namespace orrery {

const std::vector<SceneEntry>& scenes() {
  static const std::vector<SceneEntry> all{
      two_galaxies_scene(), plummer_scene(), disk_scene(),         figure_eight_scene(),
      pythagorean_scene(),  kepler_scene(),  solar_system_scene(), outer_solar_system_scene()};
  return all;
}

std::vector<std::string> scene_names() {
  std::vector<std::string> names;
  for (const auto& s : scenes()) names.push_back(s.description.name);
  return names;
}

const SceneEntry& find_scene(std::string_view name) {
  for (const auto& s : scenes())
    if (s.description.name == name) return s;
  throw ParameterError("scene", std::string(name),
                       fmt::format("one of: {}", fmt::join(scene_names(), ", ")));
}

InitialConditions make_scene(std::string_view name, const SceneSettings& settings) {
  return find_scene(name).make(settings);
}

std::vector<ParamSpec> scene_parameter_specs() {
  std::vector<ParamSpec> specs;
  for (const auto& s : scenes())
    for (const auto& p : s.description.parameters) {
      bool seen = false;
      for (const auto& q : specs) seen = seen || q.name == p.spec.name;
      if (!seen) specs.push_back(p.spec);
    }
  return specs;
}

std::string scene_list_text() {
  std::string out;
  for (const auto& s : scenes()) {
    const SceneDescription& d = s.description;
    out += fmt::format("{}\n    {}\n    units: {}\n    after: {}\n", d.name, d.summary, d.units,
                       d.reference);
    for (const auto& p : d.parameters)
      out += fmt::format("    --{:<18} {:<10} {}\n", p.spec.name,
                         format_param_value(p.default_value, p.spec.separator), p.spec.help);
  }
  return out;
}

}  // namespace orrery
