// SPDX-License-Identifier: MIT
// An ensemble in HDF5 (format "orrery-ensemble"):
//
//   /start_state [N][D], /parameters [N][P] (problems with parameters), /grid_index [N] (grid
//   starts: k·resolution + j of each row); root attributes: every parameter of the job (named as
//   the command-line flags), problem, state_names, parameter_names, trajectories, steps, the
//   orrery version and git commit.
//   /runs/<integrator>-<precision>/ for each run: final_state [N][D]; with an energy,
//   energy_error_final [N] ((E − E0)/|E0| at the end), energy_error_max [N] (the largest |ΔE/E| at
//   the sample times), sample_time [K], energy_error_median, _p99, _max [K] (over the
//   trajectories at each sample; non-finite trajectories count as +inf); attributes integrator,
//   precision, backend, kernel, threads, seconds, trajectory_steps, trajectory_steps_per_s.
//   With --tolerance (the root's `tolerance` attribute > 0), each run also has steps_accepted [N],
//   steps_rejected [N] (uint32) and status [N] (uint8: 0 finished, 1 step size underflow, 2 non-
//   finite, 3 too many steps), and attributes trajectories_failed, steps_accepted_min, _median,
//   _max.
#pragma once

#include <string>

#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

// The bytes of the file, for io/output_set.hpp; `name` is only recorded by HDF5.
std::string encode_ensemble_file(const std::string& name, const EnsembleJob& job,
                                 const EnsembleJobOutcome& outcome);

// The run group's name: "leapfrog-fp64".
std::string ensemble_run_name(const EnsembleRunResult& run);

}  // namespace orrery
