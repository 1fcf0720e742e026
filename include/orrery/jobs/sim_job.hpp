// SPDX-License-Identifier: MIT
// An N-body run as `orrery sim` describes it: initial conditions (a scene with its parameters, or
// a particle file), engine, integrator, step, end time, output and checkpoint cadence,
// precision, backend and CPU kernel, and the run (a folder: io/run_store.hpp). run_simulation()
// carries it out: it writes snapshots and checkpoints to the run, and with `resume` continues it
// from its newest checkpoint that verifies, bit for bit as if it had never stopped.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/integrate/block_steps/block_levels.hpp"
#include "orrery/integrate/ias15/ias15_criterion.hpp"
#include "orrery/nbody/collisions.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/scenes/initial_conditions.hpp"

namespace orrery {

struct SimJob {
  std::string scene;  // a scene name, or empty with `input`
  std::string input;  // a particle file (CSV or HDF5), a run's snapshot, or a run (its newest)
  std::string units;  // of `input`: length, time, mass ("au,yr,msun"), G from them; "": the file's
  std::string engine = "direct";
  // The tree engine's opening angle and multipole order (nbody/engines.hpp).
  double theta = 0.5;
  std::string multipole = "quadrupole";
  // A target median relative error of |a| for the tree: θ and the multipole are chosen at the
  // start by the error they give on the first state, and stored as the run's (0: as given).
  double accuracy = 0;
  std::string integrator = "leapfrog";
  double dt = 0.0;                                            // 0: the scene's
  double tolerance = 0.0;  // > 0: step-size control (embedded pairs); dt is then the first step
  std::int64_t corrector = 0;  // whfast's symplectic corrector order (0: none)
  // ias15's step criterion (kIas15CriterionNames); a run stored without one used "global".
  std::string ias15_criterion{kIas15CriterionNames[0]};
  // whfast's Jacobi coordinates converted at every step (REBOUND's safe mode), or kept between
  // steps; a run stored without the choice was in safe mode.
  bool whfast_safe_mode = false;
  // Block steps (leapfrog-block): η and the length L of Δt_i = (2ηL/|a_i|)^{1/2}
  // (integrate/block_steps/block_levels.hpp); L = 0: the run's softening.
  // Collisions (nbody/collisions.hpp): what touching bodies do (kCollisionRuleNames: none,
  // merge, bounce, stop), how contacts are searched (kCollisionSearchNames), and the radius of
  // every body the initial conditions give none (0: none, points).
  std::string collisions{kCollisionRuleNames[0]};
  std::string collision_search{kCollisionSearchNames[0]};
  double radius = 0.0;
  // Exits (nbody/step_events.hpp): stop, after a checkpoint, when a pair comes closer than the
  // one or a body farther from the centre of mass than the other (0: none). Not stored: each
  // invocation gives its own, so a resumed run can go past the exit that stopped it.
  double exit_min_distance = 0.0;
  double exit_max_distance = 0.0;
  double block_eta = BlockStepOptions{}.eta;
  double block_length = 0.0;
  double t_end = std::numeric_limits<double>::quiet_NaN();    // NaN: the scene's
  std::int64_t every = 0;             // steps between snapshots; 0: about 100 over the run
  double every_time = 0.0;  // time between snapshots (at its multiples; replaces `every`); 0: none
  std::int64_t checkpoint_every = 0;  // steps between checkpoints; 0: at every snapshot
  Precision precision = Precision::fp64;
  std::int64_t threads = 0;  // 0: all cores
  // Where the forces are computed: cpu, cuda (the GPUs in `devices`, empty: all) or auto (CUDA
  // when a device is present and the precision runs there).
  Backend backend = Backend::automatic;
  std::vector<int> devices;
  // The CPU engines' instruction-set variant; "" the widest this CPU runs. The run records
  // the variant used, and --resume uses it again: variants differ in the last bits.
  std::string cpu_kernel;
  std::string out = "run";  // the run's folder
  bool resume = false;
  std::int64_t stop_after = 0;  // stop after this many steps (a checkpoint is written); 0: run on
  double max_drift = 1e-3;      // warn when the relative energy drift passes it; 0: never
  bool stop_on_drift = false;   // and then stop, after a checkpoint
  SceneSettings scene_settings;  // the scene parameters the user gave
  // The fields the user set (by name); with `resume`, each of the run's stored parameters among
  // them must equal the run's own.
  std::vector<std::string> given;
};

// The job's parameters. Those that define the run (scene, input, engine, integrator, dt,
// precision, cpu-kernel) are stored in the run and cannot change on resume.
const std::vector<ParamField<SimJob>>& sim_job_fields();
bool is_stored_sim_field(const std::string& name);
// The block-step options of the run: --block-eta, and --block-length or else the softening.
BlockStepOptions block_step_options_of(const SimJob& job, double softening);

struct SimProgress {
  std::int64_t steps_done = 0;   // in this invocation
  std::int64_t steps_total = 0;  // planned for this invocation
  double seconds = 0;
  double time = 0;   // simulation time reached
  double t_end = 0;  // where the run ends
};

struct SimObserver {
  std::function<void(std::int64_t index, const Diagnostics& now, const Drift& drift)> snapshot;
  std::function<void(const SimProgress&)> progress;  // after every step
  std::function<void(const std::string&)> warning;   // the run goes on, but something is wrong
  std::function<void(const std::string&)> note;  // worth knowing, nothing wrong
  // Asked after every step: non-zero (a signal number) stops the run after a checkpoint.
  std::function<int()> stop_signal;
};

struct SimOutcome {
  std::int64_t steps = 0;      // taken in this invocation
  double time = 0;             // where the run stands now
  std::int64_t snapshots = 0;  // in the file now
  bool stopped_early = false;  // by stop_after or a stop signal
  int signal = 0;              // the stop signal that stopped it, 0 if none
  bool drift_warning = false;  // the energy drift passed max_drift (now or before)
  std::int64_t merged = 0;     // bodies merged into others in this invocation
  std::int64_t bodies = 0;     // in the system now
  std::string backend;         // where the forces were computed ("cpu", "cuda:0", ...)
  std::string potential_method;  // how W is computed: "pairs" or "tree potentials (...)"
  std::string tree_setting;      // with --accuracy: what was chosen and measured
  std::string cpu_kernel;      // the CPU kernel variant used (as recorded in the run)
  std::string note;            // e.g. why auto ran on the CPU
  std::string threads_note;    // why fewer threads ran than --threads asked for ("" if none)
};

// Throws InputError/ParameterError for bad input before any work (or file) is made, RunError for
// a failure during the run (a non-finite state: the message names the step, the time and the
// particle; a full disk: the message says so; the run keeps every snapshot and checkpoint
// written before) and for a run another process is writing.
SimOutcome run_simulation(const SimJob& job, const SimObserver& observer = {});

}  // namespace orrery
