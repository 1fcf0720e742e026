// SPDX-License-Identifier: MIT
// A simulation as a sim job describes it, for every face that steps one (the run of `orrery sim`,
// the Python module): where its particles come from when not from a scene, the checks of the
// job's choices that do not concern its files, and the Simulation made of them.
#pragma once

#include <string>

#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/nbody/step_events.hpp"
#include "orrery/scenes/initial_conditions.hpp"

namespace orrery {

// A new run's beginning: its initial conditions, the time its clock starts at, its step and end
// time.
struct SimStart {
  InitialConditions ic;
  double start_time = 0.0;
  double dt = 0.0;
  double t_end = 0.0;
};
// From --input: a particle file, a run's snapshot (which goes on from its time with its run's dt
// and end time) or a run (its newest snapshot); --softening may replace the file's softening. dt
// and t_end are the snapshot's or the file's estimates.
SimStart read_sim_input(const SimJob& job);
// From the scene or --input, with the job's step and end time where given (else the scene's or
// the file's), each refused before any work when wrong (ParameterError/InputError naming the
// flag); the memory a scene needs is checked before it is made.
SimStart plan_sim_start(const SimJob& job);

// Refuses, naming the flag, a precision, engine, backend or device list the job cannot run with.
void check_simulation_choices(const SimJob& job);
// Refuses an integrator, a tolerance or a block-step option the job's precision cannot take,
// and resolves the CPU kernel ("" becomes the widest this CPU runs): the job as it will run.
SimJob resolved_simulation_choices(const SimJob& job, double softening);

// Over the ranks of an MPI job (dist/bodies_over_ranks.hpp): refuses, naming the flag, an engine
// other than direct, a method whose step is not body by body, and fewer bodies than ranks.
// Nothing in one process.
void check_simulation_over_ranks(const SimJob& job, std::size_t bodies);

// The collisions and exits of the job (nbody/step_events.hpp), its words checked
// (ParameterError naming the flag).
StepEvents step_events_of(const SimJob& job);
// Gives every body of `p` without a radius the job's --radius, and refuses collisions where no
// body has a radius (there would be none) and --radius where the input gives radii.
void apply_job_radii(const SimJob& job, Particles<double>& p, const std::string& source);
// Refuses collisions and exits with a simulation whose forces are computed on `backend` other
// than the CPU, or shared over MPI ranks: they are found on the host from the whole state after
// every step, which is built and tested for one CPU process only.
void check_step_events_where(const SimJob& job, const std::string& backend);

// With --accuracy (job.accuracy > 0): the job with the tree's θ and multipole chosen by the error
// they give on the start's bodies (nbody/tree_accuracy.hpp), so that a run stores and resumes
// with them, and what was chosen and measured in `described`. Else the job as it is.
template <class Real>
SimJob with_tree_setting(const SimJob& job, const SimStart& start, std::string& described);

// The simulation of `particles` with the job's engine and integrator, in its precision Real.
// Over the ranks of an MPI job, this rank's slice of them, sharing its bodies with the other
// ranks (collective: every rank makes it).
template <class Real>
Simulation<Real> make_simulation(const SimJob& job, Particles<Real> particles, double g,
                                 double softening, SimClock clock);
// The same for a new run at `start`.
template <class Real>
Simulation<Real> make_simulation(const SimJob& job, const SimStart& start);

}  // namespace orrery
