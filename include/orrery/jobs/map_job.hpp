// SPDX-License-Identifier: MIT
// A divergence map as `orrery map` describes it: the physics (ensemble/problems/divergence3/),
// where and in which precision to compute it, and the picture and data files to write.
// run_map_job() validates everything before any work, computes the map, and writes the PNG and,
// with `data`, the HDF5 file: both or neither (io/output_set.hpp). An output that exists is
// refused unless `overwrite` is set, as `orrery sim` refuses an existing run file.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/render/divergence_image.hpp"

namespace orrery {

struct MapJob {
  DivergenceMapParams physics;
  Backend backend = Backend::automatic;
  Precision precision = Precision::fp64;  // fp64, fp32 or mixed
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

// Throws ParameterError for anything refused: the physics, precision, backend and devices,
// output paths that cannot be written or that exist (without `overwrite`), --data equal to
// --out, an output equal to the config file, and a map larger than the memory this process
// may use (InputError).
void validate(const MapJob& job);
// The part of validate() that concerns the computation alone (physics, precision, backend,
// devices, kernel, colour map, memory), not the output paths: for jobs that compute maps and
// name their files themselves (jobs/zoom_job.hpp).
void validate_map_computation(const MapJob& job);

struct MapObserver {
  std::function<void(const MapProgress&)> progress;  // a few times a second, and at the end
};

// When each phase of run_map_job() ended, on the steady clock: the checks of every parameter
// and path, the wait for the backend's set-up started beside them (MapPreparation), the map,
// and the encoded and written files. `backend_setup_seconds` is the part of the map spent
// setting up before the backend's work began (map.info.setup_seconds).
struct MapTimings {
  using Clock = std::chrono::steady_clock;
  Clock::time_point started, checked, prepared, computed, written;
  double backend_setup_seconds = 0;
};

struct MapOutcome {
  DivergenceMap map;  // the counts and how they were computed (map.info)
  MapTimings timings;
};

// How compute_divergence_map() runs this job's map.
MapRunOptions map_run_options(const MapJob& job, const MapObserver& observer = {});

// Validates, computes the map and writes the files (each atomically). Throws InputError before
// any work for refused input, RunError for a failure on the way. The backend is set up (the
// GPUs' contexts and memory) on a thread of its own while the parameters are checked, and the
// picture and the data are encoded side by side.
MapOutcome run_map_job(const MapJob& job, const MapObserver& observer = {});

}  // namespace orrery
