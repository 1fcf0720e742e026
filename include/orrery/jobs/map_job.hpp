// SPDX-License-Identifier: MIT
// A divergence map as `orrery map` describes it: the physics (ensemble/problems/divergence3/),
// where and in which precision to compute it, and the picture and data files to write.
// run_map_job() validates everything before any work, computes the map, and writes the PNG and,
// with `data`, the HDF5 file: both or neither (io/output_set.hpp). An output that exists is
// refused unless `overwrite` is set, as `orrery sim` refuses an existing run file. The job's
// options (jobs/map_job_options.hpp) and what it gives (jobs/map_job_outcome.hpp) are in headers
// of their own, apart from this one, which brings in the dispatcher and its backends.
#pragma once

#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/jobs/map_job_options.hpp"
#include "orrery/jobs/map_job_outcome.hpp"

namespace orrery {

// Throws ParameterError for anything refused: the physics, precision, backend and devices,
// output paths that cannot be written or that exist (without `overwrite`), --data equal to
// --out, an output equal to the config file, and a map larger than the memory this process
// may use (InputError).
void validate(const MapJob& job);
// The part of validate() that concerns the computation alone (physics, precision, backend,
// devices, kernel, colour map, memory), not the output paths: for jobs that compute maps and
// name their files themselves (jobs/zoom_job.hpp).
void validate_map_computation(const MapJob& job);

// How compute_divergence_map() runs this job's map.
MapRunOptions map_run_options(const MapJob& job, const MapObserver& observer = {});

// Validates, computes the map and writes the files (each atomically). Throws InputError before
// any work for refused input, RunError for a failure on the way. The backend is set up (the
// GPUs' contexts and memory) on a thread of its own while the parameters are checked, and the
// picture and the data are encoded side by side.
MapOutcome run_map_job(const MapJob& job, const MapObserver& observer = {});

}  // namespace orrery
