// SPDX-License-Identifier: MIT
// `orrery chaos`: an indicator of chaos (MEGNO, maximal Lyapunov exponent, FLI, SALI, the
// spectrum; ensemble/chaos/) for every start of an ensemble — a grid on a plane of phase space,
// random points, or rows of a file, as `orrery ensemble` makes them (jobs/ensemble_job.hpp) — to
// a picture of the plane (grid starts) and an HDF5 file, with the fraction of starts a threshold
// calls chaotic. run_chaos_job() validates everything before any work, runs, and writes the files
// (both or neither, io/output_set.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

struct ChaosJob {
  // The problem, its starts, the integrator (one, of chaos_integrator_names), dt, steps or
  // t_end, samples (the finite-time values kept), backend and threads. Its out, plot and section
  // are not used; its precision must be fp64.
  EnsembleJob ensemble;
  std::string indicator = "megno";
  std::int64_t every = 10;  // steps between renormalisations of the deviation vectors
  // Starts whose indicator is beyond this are chaotic: MEGNO, Lyapunov, FLI (and the spectrum's
  // largest exponent) above it, SALI below it.
  std::optional<double> threshold;
  std::string out;   // PNG of the indicator over the plane (grid starts only)
  std::string data;  // HDF5 of every start's values
  bool exact = false;  // ChaosSetup::exact_gpu
  bool overwrite = false;
  bool in_memory = false;  // the Python face: no file needed
};

// The threshold the literature uses where --threshold is not given (SALI: 10⁻⁸, Skokos 2001), or
// none (the others depend on the time of the run).
std::optional<double> default_chaos_threshold(ChaosIndicator indicator);

struct ChaosJobOutcome {
  EnsembleStartSet starts;
  std::int64_t steps = 0;
  std::string integrator;
  ChaosIndicatorInfo indicator;
  ChaosOutcome run;
  std::vector<double> field;  // the indicator of each start at the end of the run
  std::optional<double> threshold;
  // Of the starts whose indicator is finite, the fraction beyond the threshold; and how many
  // went non-finite (escaped, or met a singularity).
  std::optional<double> chaotic_fraction;
  std::int64_t non_finite = 0;
};

void validate(const ChaosJob& job);
ChaosJobOutcome run_chaos_job(const ChaosJob& job,
                              const std::function<void(const EnsembleProgress&)>& progress = {});

// The HDF5 file's bytes (jobs/chaos_file.cpp) and the picture (grid starts).
std::string encode_chaos_file(const std::string& name, const ChaosJob& job,
                              const ChaosJobOutcome& outcome);
RgbImage draw_chaos_picture(const ChaosJob& job, const ChaosJobOutcome& outcome);

}  // namespace orrery
