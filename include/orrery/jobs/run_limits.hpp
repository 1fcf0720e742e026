// SPDX-License-Identifier: MIT
// The limits a run is held to before its first step, so that a run which would never end, or
// would fill the disk or the memory, is refused with a message instead of started:
//  - at most kMaxRunSteps steps from where the run stands to t_end (a time step so small against
//    t_end that the run would take forever, or that rounding would stall);
//  - at most kMaxSnapshots snapshots (the run file names them with six digits);
//  - the snapshots' bytes fit on the disk that holds the run file;
//  - the simulation's memory fits in what this process may use (jobs/memory_estimate.hpp).
#pragma once

#include <cstdint>

#include "orrery/jobs/sim_job.hpp"

namespace orrery {

inline constexpr double kMaxRunSteps = 1e10;
inline constexpr std::int64_t kMaxSnapshots = 1'000'000;

// `job` says which values the user gave (--dt, --t-end) and where the run file goes; `dt`,
// `t_end` and `every` are the run's after defaults (every 0: none by step count); `t_start` is
// where the run stands. Throws ParameterError or InputError.
void check_run_limits(const SimJob& job, std::int64_t particles, double t_start, double dt,
                      double t_end, std::int64_t every);

}  // namespace orrery
