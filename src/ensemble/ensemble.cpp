// SPDX-License-Identifier: MIT
#include "orrery/ensemble/ensemble.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "ensemble/backend_choice.hpp"
#include "ensemble/cpu/ensemble_cpu.hpp"
#if ORRERY_WITH_CUDA
#include "ensemble/cuda/ensemble_cuda.hpp"
#endif
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery {

namespace {

void validate(const EnsembleSetup& s, const EnsembleRunOptions& options) {
  if (s.problem < 0 || s.problem >= kEnsembleProblemCount)
    throw ParameterError("problem", fmt::format("{}", s.problem),
                         fmt::format("an index below {}", kEnsembleProblemCount));
  if (s.integrator < 0 || s.integrator >= kEnsembleIntegratorCount)
    throw ParameterError("integrator", fmt::format("{}", s.integrator),
                         fmt::format("an index below {}", kEnsembleIntegratorCount));
  check_integrator_applies(s.problem, s.integrator);
  if (s.precision != Precision::fp64 && s.precision != Precision::fp32 &&
      s.precision != Precision::mixed)
    throw ParameterError("precision", to_string(s.precision), "one of: fp64, fp32, mixed");
  if (!std::isfinite(s.dt) || s.dt == 0.0)
    throw ParameterError("dt", fmt::format("{}", s.dt), "a finite number other than 0");
  check_ensemble_tolerance(s.tolerance, s.integrator, s.precision);
  if (s.tolerance > 0) {
    // dt is the first trial step of every trajectory, forward in time.
    if (!(s.dt > 0))
      throw ParameterError("dt", fmt::format("{}", s.dt), "a first step > 0 with a tolerance");
    if (!(std::isfinite(s.t_end) && s.t_end >= 0))
      throw ParameterError("t_end", fmt::format("{}", s.t_end), "a finite time > 0 (0: steps·dt)");
    if (s.t_end == 0 && s.steps < 1)
      throw ParameterError("steps", fmt::format("{}", s.steps), "a whole number >= 1");
    if (s.samples < 1 || s.samples > kEnsembleMaxSamples)
      throw ParameterError("samples", fmt::format("{}", s.samples),
                           fmt::format("a whole number from 1 to {}", kEnsembleMaxSamples));
  } else {
    if (s.steps < 1)
      throw ParameterError("steps", fmt::format("{}", s.steps), "a whole number >= 1");
    if (s.samples < 1 || s.samples > kEnsembleMaxSamples || s.samples > s.steps)
      throw ParameterError("samples", fmt::format("{}", s.samples),
                           fmt::format("a whole number from 1 to min(steps, {})",
                                       kEnsembleMaxSamples));
  }
  if (s.trajectories < 1)
    throw ParameterError("trajectories", fmt::format("{}", s.trajectories),
                         "a whole number >= 1");
  const int words = ensemble_problems()[static_cast<std::size_t>(s.problem)].state_words +
                    ensemble_problems()[static_cast<std::size_t>(s.problem)].parameters;
  if (s.starts.swept >= words)
    throw ParameterError("sweep", fmt::format("word {}", s.starts.swept),
                         fmt::format("a word below {}", words));
  if (ensemble_problems()[static_cast<std::size_t>(s.problem)].needs_data && !s.data)
    throw ParameterError("data", "none",
                         fmt::format("the shared data of {} (its potential)",
                                     ensemble_problems()[static_cast<std::size_t>(s.problem)].name));
  const EnsembleSection& sec = s.section;
  if (sec.word >= 0) {
    const int state_words = ensemble_problems()[static_cast<std::size_t>(s.problem)].state_words;
    if (sec.word >= state_words)
      throw ParameterError("section", fmt::format("word {}", sec.word),
                           fmt::format("a state word below {}", state_words));
    if (!std::isfinite(sec.value))
      throw ParameterError("section", fmt::format("{}", sec.value), "a finite value");
    if (sec.direction < -1 || sec.direction > 1)
      throw ParameterError("section_direction", fmt::format("{}", sec.direction),
                           "+1 (up), -1 (down) or 0 (both)");
    if (sec.capacity < 1 || sec.capacity > kEnsembleMaxCrossings)
      throw ParameterError("max_crossings", fmt::format("{}", sec.capacity),
                           fmt::format("a whole number from 1 to {}", kEnsembleMaxCrossings));
  }
  if (options.threads < 0)
    throw ParameterError("threads", fmt::format("{}", options.threads),
                         "a positive number of threads (0: all cores)");
}

}  // namespace

std::vector<double> ensemble_sample_times(const EnsembleSetup& setup) {
  std::vector<double> times;
  const auto in = [&]<class T>(T) {
    const T t_end = static_cast<T>(ensemble_end_time(setup)), count = static_cast<T>(setup.samples);
    for (int k = 1; k <= setup.samples; ++k)
      times.push_back(static_cast<double>(adaptive_sample_time(t_end, static_cast<T>(k), count)));
  };
  if (setup.tolerance > 0 && setup.precision == Precision::fp32)
    in(0.0f);
  else if (setup.tolerance > 0)
    in(0.0);
  else
    for (int k = 1; k <= setup.samples; ++k)
      times.push_back(setup.dt * static_cast<double>(setup.steps * k / setup.samples));
  return times;
}

EnsembleOutcome run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options) {
  validate(setup, options);
  const BackendChoice choice = choose_backend(options.backend, options.devices);
  const EnsembleProblemInfo& problem = ensemble_problems()[static_cast<std::size_t>(setup.problem)];

  const auto t0 = std::chrono::steady_clock::now();
  EnsembleOutcome out;
  out.trajectories = setup.trajectories;
  out.state_words = problem.state_words;
  out.final_state.resize(static_cast<std::size_t>(setup.trajectories) * problem.state_words);
  if (problem.has_energy)
    out.drift.resize(static_cast<std::size_t>(setup.trajectories) * setup.samples);
  if (setup.tolerance > 0) {
    const auto n = static_cast<std::size_t>(setup.trajectories);
    out.steps_accepted.resize(n);
    out.steps_rejected.resize(n);
    out.status.resize(n);
  }
  if (setup.section.word >= 0) {
    const auto n = static_cast<std::size_t>(setup.trajectories);
    out.section_count.resize(n);
    out.section_points.resize(n * static_cast<std::size_t>(setup.section.capacity) *
                              static_cast<std::size_t>(problem.state_words + 1));
  }
#if ORRERY_WITH_CUDA
  if (choice.on_gpu) cuda::run_ensemble(setup, options, out);
#endif
  if (!choice.on_gpu) {
    cpu::run_ensemble(setup, options, out);
    out.info.note = cpu_run_note(choice, options.backend, out.info.note);
  }
  if (setup.tolerance > 0) {
    // Over every core: the benchmark's 2^23 trajectories are 75 MB of tallies.
    const auto n = static_cast<std::int64_t>(out.status.size());
    std::int64_t steps = 0, failed = 0;
#pragma omp parallel for schedule(static) reduction(+ : steps, failed)
    for (std::int64_t i = 0; i < n; ++i) {
      steps += std::int64_t{out.steps_accepted[static_cast<std::size_t>(i)]} +
               out.steps_rejected[static_cast<std::size_t>(i)];
      failed += out.status[static_cast<std::size_t>(i)] != 0;
    }
    out.trajectory_steps = steps;
    out.failed = failed;
  } else {
    out.trajectory_steps = setup.trajectories * setup.steps;
  }
  out.info.wall_seconds = seconds_since(t0);
  return out;
}

}  // namespace orrery
