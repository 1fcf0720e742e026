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
  if (s.steps < 1)
    throw ParameterError("steps", fmt::format("{}", s.steps), "a whole number >= 1");
  if (s.samples < 1 || s.samples > kEnsembleMaxSamples || s.samples > s.steps)
    throw ParameterError("samples", fmt::format("{}", s.samples),
                         fmt::format("a whole number from 1 to min(steps, {})",
                                     kEnsembleMaxSamples));
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
  if (options.threads < 0)
    throw ParameterError("threads", fmt::format("{}", options.threads),
                         "a positive number of threads (0: all cores)");
}

}  // namespace

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
#if ORRERY_WITH_CUDA
  if (choice.on_gpu) cuda::run_ensemble(setup, options, out);
#endif
  if (!choice.on_gpu) {
    cpu::run_ensemble(setup, options, out);
    out.info.note = cpu_run_note(choice, options.backend, out.info.note);
  }
  out.trajectory_steps = setup.trajectories * setup.steps;
  out.info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace orrery
