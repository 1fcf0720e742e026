// SPDX-License-Identifier: MIT
// What the sim job's files share beyond the public header: the settings a resumed run keeps
// unless given again, and the run loop.
#pragma once

#include <cstdint>
#include <string>

#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/jobs/simulation_of_job.hpp"
#include "orrery/nbody/simulation.hpp"

namespace orrery {

// Settings recorded in run.h5 as the run was made (t-end, every, checkpoint-every); a resumed
// run keeps its checkpoint's unless given again.
bool is_resumed_sim_setting(const std::string& name);

// When a run ends and writes: snapshots every `every` steps and/or at the multiples of
// `every_time` (the step before one is shortened to land on it), and at t_end; checkpoints every
// `checkpoint_every` steps, at t_end, and when stopping after `stop_after` steps of this
// invocation (0: no stop).
struct SimCadence {
  double t_end = 0.0;
  std::int64_t every = 0;        // 0: no snapshots by step count
  double every_time = 0.0;       // 0: no snapshots by time
  std::int64_t checkpoint_every = 1;
  std::int64_t stop_after = 0;
  double max_drift = 0.0;      // warn when the relative energy drift passes it; 0: never
  bool stop_on_drift = false;  // and stop, after a checkpoint
  StepEvents events;           // collisions and exits after every step
};
// The ranks that write a checkpoint now, as it records them (0: one process).
std::int64_t ranks_of_job();

// With --resume, each scene parameter given must equal the run's own (ParameterError naming it).
void check_resumed_scene_settings(hid_t root, const SimJob& job);

// The job that --resume continues, from the run's description (run.h5's root) and what this
// invocation gave: the stored parameters (any given again must agree: ParameterError), with the
// defaults of those added since for older runs; refuses a CPU kernel variant this CPU cannot run.
SimJob stored_sim_job(hid_t root, const SimJob& job);


// Steps `sim` to cadence.t_end, writing snapshots and checkpoints as `cadence` says, and stops
// early, after a checkpoint, when observer.stop_signal says so. Over the ranks of an MPI job every
// rank runs it (a Simulation sharing its bodies: nbody/body_share.hpp) and rank 0 alone has a
// `store` (null on the others) and writes. `warning` is the energy drift
// warning raised before (none for a new run). Instantiated for float, double and float128.
template <class Real>
SimOutcome run_loop(Simulation<Real>& sim, RunStore* store, const Diagnostics& initial,
                    std::int64_t next_snapshot, const SimCadence& cadence, DriftWarning warning,
                    const SimObserver& observer);

}  // namespace orrery
