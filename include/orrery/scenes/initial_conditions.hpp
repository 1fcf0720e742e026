// SPDX-License-Identifier: MIT
// What a run starts from: the particles (ids 0..N−1 unless a file gives its own) and what belongs
// with them — the gravitational constant and softening of their units, a step and an end time
// that suit them, and the parameters that made them, so that a snapshot can record how to make
// them again.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/core/particles.hpp"

namespace orrery {

// Parameter values by name, as the user gave them (command line, config file) or as a scene
// used them (every parameter, defaults included).
using SceneSettings = std::vector<std::pair<std::string, ParamValue>>;

struct InitialConditions {
  std::string scene;  // "plummer", ...; "file" for particles read from a file
  Particles<double> particles;
  double g = 1.0;          // gravitational constant in the scene's units
  double softening = 0.0;  // global ε, used where particles.softening is empty
  double dt = 0.0;         // a time step that suits the scene (fixed-step integrators)
  double t_end = 0.0;      // an end time that shows what the scene is for
  double time = 0.0;       // the time the particles are at (a file's 'time'; 0 for a scene)
  std::string units;       // "Henon: G = M = 1, E = -1/4", "SI: m, kg, s", ...
  std::string frame;       // "centre of mass at rest at the origin", ...
  SceneSettings parameters;
};

}  // namespace orrery
