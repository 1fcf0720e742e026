// SPDX-License-Identifier: MIT
// The types of an ensemble run (ensemble/ensemble.hpp runs one): where the trajectories start,
// what they integrate, how the run is carried out, and what comes back. Apart from the
// dispatcher, so that lower rooms and faces can use them without it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"
#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/core/uninitialised_vector.hpp"
#include "orrery/ensemble/ensemble_problem.hpp"
#include "orrery/ensemble/ensemble_section.hpp"

namespace orrery {

// Where each trajectory starts: its state words then its parameter words (a row of D + P
// values). From `rows` (N rows, row-major) when given; else every trajectory starts from `base`,
// word `swept` (if ≥ 0) taking N evenly spaced values from `from` to `to` (the Lorenz benchmark's
// ρ = linspace(0, 21, N)). Trivially copyable: the CUDA kernel computes a sweep's starts itself.
struct EnsembleStarts {
  const double* rows = nullptr;
  double base[kEnsembleMaxWords] = {};
  int swept = -1;
  double from = 0, to = 0;
};

// Row i of n (words values).
ORRERY_HD void start_row(const EnsembleStarts& s, int words, std::int64_t i, std::int64_t n,
                                double* out) {
  if (s.rows) {
    for (int w = 0; w < words; ++w) out[w] = s.rows[i * words + w];
    return;
  }
  for (int w = 0; w < words; ++w) out[w] = s.base[w];
  if (s.swept >= 0)
    out[s.swept] = n > 1 ? s.from + (s.to - s.from) * static_cast<double>(i) /
                                        static_cast<double>(n - 1)
                         : s.from;
}

// Row i of a device's share [first, first + n) of `total` trajectories: the share's own n rows
// where rows were uploaded for it, else (a sweep, or one base) computed from the global index.
ORRERY_HD void share_start_row(const EnsembleStarts& s, int words, std::int64_t i,
                               std::int64_t first, std::int64_t n, std::int64_t total,
                               double* out) {
  if (s.rows)
    start_row(s, words, i, n, out);
  else
    start_row(s, words, first + i, total, out);
}

struct EnsembleSetup {
  int problem = 0;     // index into EnsembleProblems (ensemble/ensemble_catalogue.hpp)
  int integrator = 0;  // index into EnsembleIntegrators
  // fp64, fp32, or mixed: the state and its sums in fp64, the field in fp32 (MixedField).
  Precision precision = Precision::fp64;
  double dt = 0.01;
  std::int64_t steps = 0;
  // Fixed steps: the energy drift is recorded after steps·k/samples steps, k = 1 … samples; with
  // a tolerance at the times t_end·k/samples.
  int samples = 1;
  std::int64_t trajectories = 0;
  EnsembleStarts starts;
  // > 0: each trajectory controls its own step (an embedded pair: dopri5, tsit5, dop853) with
  // this tolerance, absolute and relative (ensemble/adaptive_trajectory.hpp), from a first trial
  // step dt to t_end; 0: every trajectory takes `steps` steps of dt.
  double tolerance = 0;
  double t_end = 0;  // with a tolerance: the end time (0: steps·dt)
  // What every trajectory shares (the problem's Data, ensemble/ensemble_problem.hpp: a user's
  // potential), owned by the caller for the run; null: Data{}, refused for a problem that
  // needs its own (EnsembleProblemInfo::needs_data).
  const void* data = nullptr;
  // A surface of section whose crossings each trajectory records (ensemble/section_crossing.hpp);
  // section.word < 0: none, and the run's code is the one without it.
  EnsembleSection section;
};

// The time a run ends at: t_end, or steps·dt.
inline double ensemble_end_time(const EnsembleSetup& s) {
  return s.tolerance > 0 && s.t_end > 0 ? s.t_end : s.dt * static_cast<double>(s.steps);
}

// The time of sample k (1 … samples) of a controlled run, t_end·k/K rounded to the lane type T
// once (t_K = t_end): where the trajectories land, and what the outputs record.
template <class T>
ORRERY_HD T adaptive_sample_time(const T& t_end, const T& k, const T& count) {
  return lane_select(k == count, t_end, t_end * k / count);
}

// The times of a run's samples as it reaches them: dt·⌊steps·k/K⌋, or with a tolerance
// adaptive_sample_time in the run's precision.
std::vector<double> ensemble_sample_times(const EnsembleSetup& setup);

struct EnsembleProgress {
  std::int64_t trajectories_done = 0;
  std::int64_t trajectories_total = 0;
  double seconds = 0;
};

struct EnsembleRunOptions {
  Backend backend = Backend::automatic;
  int threads = 0;           // CPU threads; 0: every CPU this process may use
  std::string cpu_kernel;    // "" takes the widest the CPU runs
  std::vector<int> devices;  // CUDA devices; empty: all
  // Called from one thread, a few times a second, and once at the end.
  std::function<void(const EnsembleProgress&)> progress;
};

struct EnsembleRunInfo {
  std::string backend;  // "cpu", "cuda"
  std::string kernel;   // the CPU kernel, or the device name
  int threads = 0;      // CPU threads, or GPUs
  std::string note;     // e.g. why "auto" ran on the CPU
  double seconds = 0;   // the integration (CUDA: the devices set up to the last result)
  double kernel_seconds = 0;  // CUDA: the slowest device's kernel alone
  double wall_seconds = 0;
};

struct EnsembleOutcome {
  std::int64_t trajectories = 0;
  int state_words = 0;
  // trajectories × state_words, row-major. Allocated without zero-filling: the backends write
  // every element (core/uninitialised_vector.hpp).
  UninitialisedVector<double> final_state;
  // (E − E0)/|E0| at each sample, samples × trajectories (empty for a problem without energy);
  // NaN or ±∞ where the trajectory went non-finite.
  UninitialisedVector<float> drift;
  // Steps attempted by all trajectories (with a tolerance: accepted and rejected).
  std::int64_t trajectory_steps = 0;
  // With a tolerance, per trajectory: steps accepted and rejected, and its TrajectoryStatus
  // (ensemble/adaptive_trajectory.hpp: 0 finished; a failed trajectory stops where it failed,
  // its later drift samples NaN); `failed` counts those that did not finish. Empty otherwise;
  // allocated without zero-filling, as the states are.
  UninitialisedVector<std::uint32_t> steps_accepted, steps_rejected;
  UninitialisedVector<std::uint8_t> status;
  std::int64_t failed = 0;
  // With a section, per trajectory: its crossings (all, those beyond the capacity K included),
  // and its first K as rows of the state words then the time, trajectories × K × (D + 1) (slots
  // past a trajectory's count NaN). Empty otherwise.
  std::vector<std::int64_t> section_count;
  UninitialisedVector<double> section_points;
  EnsembleRunInfo info;
};

}  // namespace orrery
