// SPDX-License-Identifier: MIT
// Scenes by name: two-galaxies, plummer, disk, figure-eight, pythagorean, kepler. Particles read
// from a file are not a named scene; io/particle_file.hpp reads them into the same
// InitialConditions.
//
// For the CLI: scene_parameter_specs() holds every scene parameter once (a name means the same
// in every scene that has it: n, seed, softening), so one option per name can be generated;
// the values the user gave go to make_scene by name, which refuses a parameter the chosen scene
// does not have.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

std::vector<std::string> scene_names();
const std::vector<SceneEntry>& scenes();
// Throws ParameterError("scene", name, "one of: ...").
const SceneEntry& find_scene(std::string_view name);

// The scene with its defaults overridden by `settings` (values by parameter name).
InitialConditions make_scene(std::string_view name, const SceneSettings& settings = {});

// Every parameter of every scene, each name once, in order of first appearance.
std::vector<ParamSpec> scene_parameter_specs();

// The scenes with their parameters and defaults, for `orrery sim --list`.
std::string scene_list_text();

}  // namespace orrery
