// SPDX-License-Identifier: MIT
#include "scene_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli_params.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery::cli {

namespace {

// A scene parameter's help names the scenes that have it; where they describe it differently
// (units differ between scenes), --list gives each one's meaning.
std::string scene_help(const ParamSpec& spec) {
  std::vector<std::string> names;
  bool same = true;
  for (const auto& scene : scenes())
    for (const auto& p : scene.description.parameters)
      if (p.spec.name == spec.name) {
        names.push_back(scene.description.name);
        same = same && p.spec.help == spec.help;
      }
  return fmt::format("scene parameter of {}: {}", fmt::join(names, ", "),
                     same ? spec.help : "its meaning and units differ by scene (see --list)");
}

}  // namespace

SceneOptions::SceneOptions(CLI::App& app)
    : specs_(scene_parameter_specs()), values_(specs_.size()) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const ParamSpec& s = specs_[i];
    // A flag the command has already (sim's --units): given through it, set_text() takes it.
    if (app.get_option_no_throw("--" + s.name)) {
      options_.push_back(nullptr);
      continue;
    }
    options_.push_back(app.add_option("--" + s.name, values_[i], scene_help(s))
                           ->type_name(param_type_name(s))
                           ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
  }
}

void SceneOptions::apply(SimJob& job) const {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (!options_[i] || options_[i]->count() == 0) continue;
    try {
      set(job, specs_[i].name, parse_param_text(specs_[i], values_[i]));
    } catch (const ParameterError& e) {
      throw e.renamed("--" + specs_[i].name);
    }
  }
}

void SceneOptions::set(SimJob& job, const std::string& name, ParamValue value) {
  for (auto& [n, v] : job.scene_settings)
    if (n == name) {
      v = std::move(value);
      return;
    }
  job.scene_settings.emplace_back(name, std::move(value));
}

bool SceneOptions::set_text(SimJob& job, const std::string& name, const std::string& text) const {
  for (const auto& scene : scenes())
    if (scene.description.name == job.scene)
      for (const auto& p : scene.description.parameters)
        if (p.spec.name == name) {
          try {
            set(job, name, parse_param_text(p.spec, text));
          } catch (const ParameterError& e) {
            throw e.renamed("--" + name);
          }
          return true;
        }
  return false;
}

void SceneOptions::rethrow_as_flag(const ParameterError& e) const {
  for (const auto& spec : specs_)
    if (e.parameter() == spec.name) throw e.renamed("--" + spec.name);
  throw e;
}

}  // namespace orrery::cli
