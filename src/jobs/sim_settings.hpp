// SPDX-License-Identifier: MIT
// What the sim job's files share beyond the public header: the settings a resumed run keeps
// unless given again, and the run loop.
#pragma once

#include <cstdint>
#include <string>

#include "orrery/io/run_file.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

// Settings stored in the run file that a resumed run keeps unless given again (t-end, every,
// checkpoint-every).
bool is_resumed_sim_setting(const std::string& name);

// Steps `sim` to t_end, writing a snapshot every `every` steps (and at the end) and a checkpoint
// every `checkpoint_every` (and at the end, and when stopping after `stop_after` steps).
// Instantiated for float, double and float128.
template <class Real>
SimOutcome run_loop(Simulation<Real>& sim, RunFile& file, const Diagnostics& initial,
                    std::int64_t next_snapshot, double t_end, std::int64_t every,
                    std::int64_t checkpoint_every, std::int64_t stop_after,
                    const SimObserver& observer);

}  // namespace orrery
