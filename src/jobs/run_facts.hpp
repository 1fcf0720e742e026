// SPDX-License-Identifier: MIT
// What the picture jobs (render, plot) read of a run before its snapshots: that it is one, its
// name for the files made from it, and the attributes of run.h5 that say how to show it.
#pragma once

#include <cstdint>
#include <string>

namespace orrery {

struct RunFacts {
  std::string name;   // the folder's path without a trailing '/', for "NAME.mp4", "NAME-energy.png"
  std::string scene;  // "" for a run of a particle file
  std::string units;
  std::int64_t scene_n = 0;  // the scene's n, 0 where it has none
  double t_end = 0;
};

// ParameterError naming RUN when `run` is not a run folder.
RunFacts read_run_facts(const std::string& run);

}  // namespace orrery
