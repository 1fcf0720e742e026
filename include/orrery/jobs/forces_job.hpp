// SPDX-License-Identifier: MIT
// `orrery forces`: the accelerations and potentials of a particle file by any engine on any
// backend, evaluated once or K times (the median time and its parts printed), written to an HDF5
// file (datasets `acceleration` N×3 and `potential` N, in the file's body order). It is how users
// and tests compare engines: `orrery forces --engine tree` against `--engine direct`.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

struct ForcesJob {
  std::string input;  // a particle file (CSV or HDF5), a run's snapshot, or a run (its newest)
  std::string engine = "direct";
  Backend backend = Backend::automatic;
  std::vector<int> devices;
  std::string cpu_kernel;
  Precision precision = Precision::fp64;
  double theta = 0.5;
  std::string multipole = "quadrupole";
  // Tree engine: a target median relative error of |a|; θ and the multipole are then chosen by
  // the error they give on this system (nbody/tree_accuracy.hpp). 0: take theta and multipole.
  double accuracy = 0;
  double softening = std::numeric_limits<double>::quiet_NaN();  // NaN: the file's, else 0
  double g = std::numeric_limits<double>::quiet_NaN();          // NaN: the file's, else 1
  std::int64_t threads = 0;
  std::int64_t repeat = 1;
  std::string out;
  bool overwrite = false;
  bool quiet = false;
};

const std::vector<ParamField<ForcesJob>>& forces_job_fields();

struct ForcesOutcome {
  std::size_t n = 0;
  std::string engine, backend, note;  // note: e.g. why auto ran on the CPU
  std::string cpu_kernel;
  double g = 1, softening = 0;
  std::string g_from, softening_from;  // "the file", "--G", "the default"
  double median_seconds = 0;  // of the K evaluations
  EngineTimings median_parts;   // each part's median
  double interactions_per_second = 0;  // N(N−1) / median, for the direct engine; 0 otherwise
  std::string tree_setting;  // with --accuracy: what was chosen and measured (describe())
  double setting_seconds = 0;  // the search for it
};

// Throws InputError/ParameterError for bad input before any work, RunError when the evaluation
// fails. The output is written whole or not at all (io/output_set.hpp).
ForcesOutcome run_forces_job(const ForcesJob& job);

}  // namespace orrery
