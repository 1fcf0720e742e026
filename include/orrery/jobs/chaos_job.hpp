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
#include <span>
#include <string>
#include <vector>

#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/render/chaos_image.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

struct ChaosJob {
  // The problem, its starts, the integrator (one, of chaos_integrator_names), dt, steps or
  // t_end, samples (the finite-time values kept), backend and threads. Its out, plot and section
  // are not used; its precision must be fp64.
  EnsembleJob ensemble;
  std::string indicator = "megno";
  std::int64_t gali_k = 2;  // gali: the vectors whose volume is read, 2 ≤ k ≤ state words
  std::int64_t every = 10;  // steps between renormalisations of the deviation vectors
  // Starts whose indicator is beyond this are chaotic: MEGNO, Lyapunov, FLI (and the spectrum's
  // largest exponent) above it, SALI and GALI below it.
  std::optional<double> threshold;
  std::string out;   // PNG of the indicator over the plane (grid starts only)
  std::string data;  // HDF5 of every start's values
  bool exact = false;  // ChaosSetup::exact_gpu
  // The deviation vectors' words: fp64, or dd (double-double, SALI on the CPU:
  // ChaosSetup::double_double_vectors).
  std::string tangent_precision = "fp64";
  bool overwrite = false;
  bool in_memory = false;  // the Python face: no file needed
};

// `orrery ensemble`'s parameters that say where trajectories start and how they are integrated
// (its outputs and sections are its own, and chaos runs fp64 with fixed steps): the CLI's flags
// and the Python keywords of orrery.chaos.
const std::vector<ParamField<EnsembleJob>>& chaos_ensemble_fields();

// The exits of an open problem (the escape indicator), or none. Hénon–Heiles: its three channels
// (Aguirre, Vallejo & Sanjuán, Phys. Rev. E 64, 066208 (2001)), along the directions of its
// saddles at 90°, 210° and 330° (channels 0, 1, 2: up, left, right): a trajectory has left
// through channel c once n_c·q ≥ 2, the distance beyond which the force along n_c points
// outwards at every point the energy reaches, for any energy below 13/3 (jobs/chaos_job.cpp),
// so that it never comes back.
ChaosExits chaos_exits_of(int problem);

// Whether a start is chaotic below the threshold (the alignment indices SALI and GALI, which
// fall to 0 on a chaotic orbit) rather than above it.
bool chaotic_below(ChaosIndicator indicator);

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
  // escape: each start's time of leaving (NaN: it stayed), and how many left by each exit.
  std::vector<double> escape_time;
  std::vector<std::int64_t> escaped;
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

// The colour scale the picture draws an indicator's values `field` in (jobs/chaos_picture.cpp):
// fixed ends for MEGNO, SALI and GALI, the values' own range for the others; `exits` the exits
// of an escape basin.
ChaosScale chaos_scale(ChaosIndicator indicator, std::span<const double> field, int exits = 0);

}  // namespace orrery
