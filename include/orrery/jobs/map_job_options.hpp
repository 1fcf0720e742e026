// SPDX-License-Identifier: MIT
// The parameters of `orrery map` (MapJob) and their table, apart from the job that runs them
// (jobs/map_job.hpp): the physics (ensemble/problems/divergence3/), where and in which precision
// to compute it, and the picture and data files to write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"
#include "orrery/render/divergence_image.hpp"

namespace orrery {

struct MapJob {
  DivergenceMapParams physics;
  Backend backend = Backend::automatic;
  Precision precision = Precision::fp64;  // fp64, fp32, mixed or dd
  DeepMethod deep = DeepMethod::none;     // perturbation: fp64 differences from a reference
  std::int64_t threads = 0;               // 0: all cores
  std::string cpu_kernel;                 // "": the widest this CPU runs
  std::vector<int> devices;               // empty: all
  bool exact = false;
  std::string out = "map.png";  // empty: no picture (the Python module's default)
  std::string data;  // empty: no HDF5 file
  bool overwrite = false;  // replace existing --out and --data files
  std::string config;      // the config file the parameters came from ("": none); not an output
  std::string colormap = "inferno";
  ImageOrigin origin = ImageOrigin::upper;
  bool quiet = false;  // for the faces: no progress and no summary
};

// The job's parameters: the physics' own fields, then the run's and the outputs'.
const std::vector<ParamField<MapJob>>& map_job_fields();

}  // namespace orrery
