// SPDX-License-Identifier: MIT
// An ensemble as `orrery ensemble` describes it: a problem of the catalogue, where its
// trajectories start (a grid or random points of a plane through phase space at a fixed energy,
// a parameter swept over the trajectories, or rows of a file), the integrators and precisions to
// run them with (one result per pair), and the HDF5 file and energy plot to write.
// run_ensemble_job() validates everything before any work, runs each pair, and writes the files
// (both or neither, io/output_set.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/parameter.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery {

struct EnsembleJob {
  std::string problem = "henon-heiles";
  // --problem polynomial: V(q) of H = |p|²/2 + V(q) in x, y, z ("0.5*(x^2+y^2) + x^2*y - y^3/3").
  std::string potential;
  // Comma-separated, one run each; "": the problem's default (leapfrog for H = |p|²/2 + V(q),
  // rk4 for a first-order system).
  std::string integrators;
  std::string precisions = "fp64";       // comma-separated: one run each
  double dt = 0.01;  // the step; with a tolerance the first trial step of every trajectory
  std::int64_t steps = 10000;
  double t_end = 0;  // > 0: steps = t_end / dt (a whole number unless there is a tolerance)
  double tolerance = 0;  // > 0: each trajectory controls its own step (dopri5, tsit5, dop853)
  std::int64_t samples = 16;
  std::string starts = "grid";  // grid, random, or a CSV/HDF5 file of rows
  std::int64_t resolution = 64;  // grid: points per side
  std::int64_t n = 4096;         // random and sweep: trajectories
  std::uint64_t seed = 1;
  // Grid and random starts of a problem whose energy fixes a momentum (energy_starts,
  // ensemble/ensemble_problem.hpp); not given: kEnsembleDefaultEnergy. Refused for the others.
  std::optional<double> energy;
  std::string plane = "y:py";  // grid and random: the plane's two state words
  std::map<std::string, std::array<double, 2>> ranges;  // grid and random: per plane word
  std::string state;       // the start of every word the plane does not set ("": the problem's)
  std::string parameters;  // "rho=28,beta=2.6667": changes to the problem's defaults
  std::string sweep;       // "rho=0:21": that word evenly over the trajectories
  Backend backend = Backend::automatic;
  std::int64_t threads = 0;
  std::string cpu_kernel;
  std::vector<int> devices;
  std::string out = "ensemble.h5";
  std::string plot;  // PNG of the energy drift against time ("": none)
  // A surface of section "NAME=VALUE" (a state word through a value; "": none), the direction
  // its crossings are counted in (up, down, both), the crossings each trajectory keeps, and a
  // PNG of them in the section's plane ("": none).
  std::string section;
  std::string section_direction = "up";
  std::int64_t max_crossings = 256;
  std::string section_plot;
  // What the section's picture colours its crossings by: "orbit" (a colour each), or an
  // indicator of chaos of each orbit (sali, megno, lyapunov, fli; section_indicator.hpp), which
  // the HDF5 file then holds too.
  std::string section_colour = "orbit";
  bool overwrite = false;
  std::string config;
  bool quiet = false;
  bool in_memory = false;  // the Python face: the results are returned, a file is optional
  // The Python face's starts given as an array: rows of the state then the parameter words
  // (starts names them, "array"); empty: starts says where they come from.
  std::vector<double> start_rows;
};

// The energy of grid and random starts unless --energy gives one (Hénon–Heiles' chaotic one).
inline constexpr double kEnsembleDefaultEnergy = 0.125;

// The most steps a trajectory may take.
inline constexpr std::int64_t kEnsembleMaxSteps = std::int64_t{1} << 40;

const std::vector<ParamField<EnsembleJob>>& ensemble_job_fields();

// The problem a job runs: its index in the catalogue and its shared Data (for `polynomial`, the
// compiled shape that holds --potential, and the potential packed in it; null for the others).
struct EnsembleJobProblem {
  int index = 0;
  std::shared_ptr<const void> data;
};
// ParameterError (TextParameterError for the potential's text) naming the flag.
EnsembleJobProblem resolve_ensemble_problem(const EnsembleJob& job);

// The starts of a job's trajectories, made once: rows of state then parameter words (or a sweep
// the backends compute), and for grid starts the grid index of each row (points the energy does
// not reach are left out).
struct EnsembleStartSet {
  int problem = 0;
  std::shared_ptr<const void> data;  // the problem's shared Data (EnsembleSetup::data)
  int state_words = 0, parameter_words = 0;
  std::int64_t trajectories = 0;
  std::vector<double> rows;               // trajectories × (state + parameter words), or empty
  std::vector<std::int64_t> grid_index;   // grid starts: k·resolution + j of each row
  EnsembleStarts starts;                  // points into `rows` (keep the set alive)
  std::string description;                // one line: "grid 64 x 64 of y:py at E = 0.125"
};

// The starts as two row-major arrays, state words [N][D] and parameters [N][P], whether they
// are rows or a sweep.
struct EnsembleStartColumns {
  std::vector<double> state, parameters;
};
EnsembleStartColumns start_columns(const EnsembleStartSet& set);

// Throws ParameterError for anything refused, output paths included, before any work.
void validate(const EnsembleJob& job);
EnsembleStartSet make_ensemble_starts(const EnsembleJob& job);

struct EnsembleRunResult {
  std::string integrator;
  Precision precision = Precision::fp64;
  EnsembleOutcome outcome;
  // |ΔE/E| over the trajectories at each sample: median, 99th percentile, largest; and each
  // trajectory's at the end and its largest over the samples (empty without an energy).
  std::vector<double> sample_time, drift_median, drift_p99, drift_max;
  std::vector<double> final_drift, largest_drift;
  // With a tolerance: the accepted steps per trajectory over the ensemble (smallest, median,
  // largest) and the rejected ones in all; outcome.failed says how many did not finish.
  std::int64_t steps_min = 0, steps_median = 0, steps_max = 0, steps_rejected = 0;
  // With a section: the crossings of all trajectories, and those beyond --max-crossings (counted,
  // not kept) and how many trajectories had such.
  std::int64_t crossings = 0, crossings_beyond = 0, trajectories_beyond = 0;
};

// --section-colour-by an indicator: the value of each trajectory at the end of the run, from a
// run of the chaos lanes over the same starts (jobs/section_indicator.hpp).
struct SectionIndicator {
  std::string name;            // the indicator; "": the crossings are coloured by orbit
  std::vector<double> values;  // per trajectory
  std::int64_t every = 0;      // steps between renormalisations of the deviation vectors
  std::optional<double> threshold, chaotic_fraction;  // as orrery chaos reports them
  EnsembleRunInfo info;
};

struct EnsembleJobOutcome {
  EnsembleStartSet starts;
  EnsembleSection section;  // word < 0: none
  std::int64_t steps = 0;
  std::vector<EnsembleRunResult> runs;
  SectionIndicator section_indicator;
};

struct EnsembleObserver {
  // Before each run (its index and count), and the run's progress a few times a second.
  std::function<void(const EnsembleRunResult&, int, int)> starting;
  std::function<void(const EnsembleProgress&)> progress;
};

EnsembleJobOutcome run_ensemble_job(const EnsembleJob& job, const EnsembleObserver& observer = {});

}  // namespace orrery
