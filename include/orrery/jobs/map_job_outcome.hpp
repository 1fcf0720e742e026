// SPDX-License-Identifier: MIT
// What run_map_job() (jobs/map_job.hpp) reports while it runs and gives when it ends, apart from
// the job, so that a caller can name them without the dispatcher and its backends.
#pragma once

#include <chrono>
#include <functional>

#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"

namespace orrery {

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

}  // namespace orrery
