// SPDX-License-Identifier: MIT
// `orrery ensemble`: many trajectories of a small system (Hénon–Heiles, Lorenz, ...) at once, each
// integrator and precision asked for run over the same starts, to an HDF5 file and a plot of the
// energy drift. The job (jobs/ensemble_job.hpp) validates and runs; this face parses, shows
// progress and prints a summary line per run.
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/jobs/ensemble_section.hpp"
#include "orrery/jobs/section_indicator.hpp"
#include "progress_line.hpp"

namespace orrery::cli {

namespace {

const EnsembleJob& ensemble_job_defaults() {
  static const EnsembleJob defaults;
  return defaults;
}

std::string drift_summary(const EnsembleRunResult& r) {
  if (r.final_drift.empty()) return "";
  std::size_t lost = 0;  // trajectories that went non-finite (escaped, or blew up)
  for (double d : r.largest_drift) lost += !std::isfinite(d);
  std::string s = fmt::format("; |dE/E| at the end: median {:.3g}, largest {:.3g}",
                              r.drift_median.back(), r.drift_max.back());
  if (lost > 0) s += fmt::format(" ({} of {} went non-finite)", lost, r.largest_drift.size());
  return s;
}

// With a tolerance: the accepted steps per trajectory, the rejections, the failures.
std::string steps_summary(const EnsembleRunResult& r) {
  if (r.outcome.status.empty()) return "";
  std::string s = fmt::format("; steps per trajectory min/median/max {}/{}/{} ({} rejected in all)",
                              r.steps_min, r.steps_median, r.steps_max, r.steps_rejected);
  if (r.outcome.failed > 0)
    s += fmt::format("; {} of {} trajectories failed (status in the file)", r.outcome.failed,
                     r.outcome.trajectories);
  return s;
}

class EnsembleCommand final : public Command {
 public:
  explicit EnsembleCommand(CLI::App& parent)
      : fields_(ensemble_job_fields()),
        app_(parent.add_subcommand(
            "ensemble",
            "Many trajectories of a small system at once (Henon-Heiles, Lorenz, your own "
            "potential, three bodies), one per SIMD lane or GPU thread: final states and energy "
            "drift for each integrator and precision")),
        params_(*app_, fields_, ensemble_job_defaults()) {
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags, e.g. "
                                          "dt = 0.01); flags override it")
        ->type_name("FILE");
    app_->footer(
        "Grid and random starts lie on --plane through phase space; for H = |p|^2/2 + V(q) "
        "(henon-heiles, polynomial), one momentum not in the plane is taken from --energy "
        "(positive root), and points the energy does not reach are left out. Example, the published experiment: "
        "orrery ensemble --problem henon-heiles --energy 0.125 --plane y:py --resolution 1024 "
        "--integrator euler,rk4,leapfrog --precision fp64,fp32 --steps 100000 --plot "
        "energy.png");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    EnsembleJob job;
    if (!config_.empty()) apply_config_file(config_, fields_, job);
    params_.apply(job);
    job.config = config_;

    ProgressLine progress(job.quiet, "trajectories");
    std::string position;
    EnsembleObserver observer;
    observer.starting = [&](const EnsembleRunResult& r, int index, int count) {
      position = fmt::format("ensemble {}/{} {} {}", index + 1, count, r.integrator,
                             to_string(r.precision));
    };
    if (progress.enabled())
      observer.progress = [&](const EnsembleProgress& p) {
        show_trajectories(progress, position, p);
      };
    const EnsembleJobOutcome outcome = run_ensemble_job(job, observer);
    progress.finish();
    if (!dist::writes()) return 0;  // rank 0 says what was done
    if (job.quiet) return 0;

    if (job.tolerance > 0)
      fmt::print("orrery ensemble: {}, {}; to t = {} with tolerance {} (first step {})\n",
                 job.problem, outcome.starts.description,
                 job.t_end > 0 ? job.t_end : job.dt * static_cast<double>(outcome.steps),
                 job.tolerance, job.dt);
    else
      fmt::print("orrery ensemble: {}, {}; {} steps of {}\n", job.problem,
                 outcome.starts.description, outcome.steps, job.dt);
    for (const EnsembleRunResult& r : outcome.runs) {
      const EnsembleRunInfo& i = r.outcome.info;
      if (!i.note.empty()) std::fprintf(stderr, "orrery ensemble: note: %s\n", i.note.c_str());
      fmt::print("  {} {}: {:.4g} trajectory-steps in {:.3f} s ({:.3g}/s) on {} ({}, {} {}){}{}\n",
                 r.integrator, to_string(r.precision),
                 static_cast<double>(r.outcome.trajectory_steps), i.seconds,
                 i.seconds > 0 ? static_cast<double>(r.outcome.trajectory_steps) / i.seconds : 0.0,
                 i.backend, i.kernel, i.threads,
                 i.backend == to_string(Backend::cuda) ? "GPUs" : "threads",
                 steps_summary(r), drift_summary(r));
      if (outcome.section.word >= 0) {
        const auto& info = ensemble_problems()[static_cast<std::size_t>(outcome.starts.problem)];
        fmt::print("    section {}: {} crossings", describe_section(outcome.section, info),
                   r.crossings);
        if (r.crossings_beyond > 0)
          fmt::print("; {} beyond --max-crossings {} in {} trajectories (counted, not kept)",
                     r.crossings_beyond, outcome.section.capacity, r.trajectories_beyond);
        fmt::print("\n");
      }
    }
    if (!outcome.section_indicator.name.empty())
      fmt::print("    {}\n", describe_section_indicator(outcome.section_indicator));
    if (!job.out.empty()) fmt::print("  data: {}\n", job.out);
    if (!job.plot.empty()) fmt::print("  plot: {}\n", job.plot);
    if (!job.section_plot.empty()) fmt::print("  section plot: {}\n", job.section_plot);
    return 0;
  }

 private:
  const std::vector<ParamField<EnsembleJob>>& fields_;
  CLI::App* app_;
  CliParams<EnsembleJob> params_;
  std::string config_;
};

}  // namespace

std::unique_ptr<Command> make_ensemble_command(CLI::App& parent) {
  return std::make_unique<EnsembleCommand>(parent);
}

}  // namespace orrery::cli
