// SPDX-License-Identifier: MIT
// A scene: a named generator of initial conditions with its own parameter table. Each scene
// file (plummer.cpp, kepler.cpp, ...) holds its typed parameters and generator and describes
// itself with make_scene_entry, which hides the parameter type behind values by name, so the
// registry (scene_registry.hpp), the CLI and config files deal with every scene alike.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/core/error.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"

namespace orrery {

// The most particles a scene makes: 2³¹ − 1, some 140 GB of state in double precision.
inline constexpr std::int64_t kMaxSceneParticles = (std::int64_t{1} << 31) - 1;

struct SceneParameter {
  ParamSpec spec;
  ParamValue default_value;
};

struct SceneDescription {
  std::string name;       // "plummer"
  std::string summary;    // one line
  std::string units;      // as in InitialConditions::units
  std::string reference;  // where the construction comes from
  std::vector<SceneParameter> parameters;
};

struct SceneEntry {
  SceneDescription description;
  // Applies the settings to the defaults (each with its rule) and generates; throws
  // ParameterError for a parameter the scene does not have or a value it does not accept.
  std::function<InitialConditions(const SceneSettings&)> make;
};

// Every parameter of `params` by name, defaults included.
template <class P>
SceneSettings scene_parameter_values(const std::vector<ParamField<P>>& fields, const P& params) {
  SceneSettings values;
  for (const auto& f : fields)
    if (f.get) values.emplace_back(f.name, f.get(params));
  return values;
}

// Applies each field's rule again: parameters set in code bypass the setters.
template <class P>
void check_scene_params(const std::vector<ParamField<P>>& fields, const P& params) {
  P copy = params;
  for (const auto& f : fields)
    if (f.get) f.set(copy, f.get(params));
}

// `fields` must outlive the entry (the scenes' tables are function-local statics).
template <class P>
SceneEntry make_scene_entry(SceneDescription description, const std::vector<ParamField<P>>& fields,
                            InitialConditions (*generate)(const P&)) {
  const P defaults{};
  for (const auto& f : fields) description.parameters.push_back({f, f.get(defaults)});
  std::vector<std::string> names;
  for (const auto& f : fields) names.push_back(f.name);
  auto make = [&fields, generate, scene = description.name, names](const SceneSettings& settings) {
    P params{};
    for (const auto& [name, value] : settings) {
      const ParamField<P>* f = find_field(fields, name);
      if (!f)
        throw ParameterError(
            name, format_param_value(value),
            names.empty()
                ? fmt::format("no value: scene {} has no parameters", scene)
                : fmt::format("no value: scene {} takes only {}", scene, fmt::join(names, ", ")));
      f->set(params, value);
    }
    return generate(params);
  };
  return {std::move(description), std::move(make)};
}

}  // namespace orrery
