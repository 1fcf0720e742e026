// SPDX-License-Identifier: MIT
// `orrery section`: Poincaré surfaces of section of an ensemble's orbits — the ensemble job
// (jobs/ensemble_job.hpp) with a section, its crossings in the HDF5 file (--out) and drawn in the
// section's plane (--plot). A thin alias of `orrery ensemble --section NAME=VALUE
// --section-direction D --section-plot P`: the same job, the same files.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"
#include "orrery/jobs/ensemble_section.hpp"
#include "orrery/jobs/section_indicator.hpp"
#include "progress_line.hpp"

namespace orrery::cli {

namespace {

// orrery ensemble's parameters less those this command names its own way (--section,
// --direction, --plot for the section's picture; the energy-drift plot is ensemble's).
const std::vector<ParamField<EnsembleJob>>& section_ensemble_fields() {
  static const std::vector<ParamField<EnsembleJob>> fields = [] {
    constexpr std::string_view own[] = {"plot", "section", "section-direction", "section-plot",
                                        "section-colour-by"};
    std::vector<ParamField<EnsembleJob>> kept;
    for (const auto& f : ensemble_job_fields())
      if (std::find(std::begin(own), std::end(own), f.name) == std::end(own)) kept.push_back(f);
    return kept;
  }();
  return fields;
}

const EnsembleJob& section_defaults() {
  static const EnsembleJob defaults = [] {
    EnsembleJob e;
    e.out = "section.h5";
    return e;
  }();
  return defaults;
}

class SectionCommand final : public Command {
 public:
  explicit SectionCommand(CLI::App& parent)
      : app_(parent.add_subcommand(
            "section",
            "Poincare surfaces of section: the crossings of a plane by every orbit of an "
            "ensemble (a grid, random starts or a file), to HDF5 and a picture")),
        params_(*app_, section_ensemble_fields(), section_defaults()) {
    app_->add_option("--section", section_,
                     "the plane NAME=VALUE: a state word through a value (default: x=0)")
        ->type_name("NAME=VALUE");
    app_->add_option("--direction", direction_,
                     "the crossings counted: up (+, the word increasing), down (-) or both "
                     "(default: up)")
        ->type_name("DIR");
    app_->add_option("--plot", plot_, "PNG of every orbit's crossings in the section's plane")
        ->type_name("PATH");
    app_->add_option("--colour-by", colour_,
                     fmt::format("what colours --plot's crossings: {} (orbit: a colour each; an "
                                 "indicator: each orbit's value, computed as orrery chaos does "
                                 "with this run's integrator, step and time, on its colour "
                                 "scale, and written to --out too; default: orbit)",
                                 fmt::join(section_colourings(), ", ")))
        ->type_name("WHAT");
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags)")
        ->type_name("FILE");
    app_->footer(
        "The same job as orrery ensemble --section NAME=VALUE --section-direction DIR "
        "--section-plot PATH. Example, the Henon-Heiles section x = 0, px > 0 at E = 1/8: "
        "orrery section --problem henon-heiles --energy 0.125 --starts random --n 200 "
        "--t-end 2000 --max-crossings 500 --integrator yoshida4 --plot section.png "
        "(--colour-by sali: each orbit coloured by its SALI)");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    EnsembleJob job = section_defaults();
    if (!config_.empty()) apply_config_file(config_, section_ensemble_fields(), job);
    params_.apply(job);
    job.config = config_;
    job.section = section_;
    job.section_direction = direction_ == "+" ? "up" : direction_ == "-" ? "down" : direction_;
    if (job.section_direction != "up" && job.section_direction != "down" &&
        job.section_direction != "both")
      throw ParameterError("--direction", direction_, "up (or +), down (or -), or both");
    job.section_plot = plot_;
    job.section_colour = colour_;
    ProgressLine progress(job.quiet, "trajectories");
    EnsembleObserver observer;
    if (progress.enabled())
      observer.progress = [&](const EnsembleProgress& p) {
        show_trajectories(progress, "section " + section_, p);
      };
    const EnsembleJobOutcome outcome = [&] {
      try {
        return run_ensemble_job(job, observer);
      } catch (const ParameterError& e) {  // named as this command's flag
        if (e.parameter() == "--section-plot") throw e.renamed("--plot");
        if (e.parameter() == "--section-colour-by" || e.parameter() == "section-colour-by")
          throw e.renamed("--colour-by");
        throw;
      }
    }();
    progress.finish();
    if (job.quiet) return 0;
    const auto& info = ensemble_problems()[static_cast<std::size_t>(outcome.starts.problem)];
    fmt::print("orrery section: {} of {}, {}; {} steps of {}\n",
               describe_section(outcome.section, info), job.problem, outcome.starts.description,
               outcome.steps, job.dt);
    for (const EnsembleRunResult& r : outcome.runs) {
      const EnsembleRunInfo& i = r.outcome.info;
      if (!i.note.empty()) std::fprintf(stderr, "orrery section: note: %s\n", i.note.c_str());
      fmt::print("  {} {}: {} crossings in {:.3f} s on {} ({})", r.integrator,
                 to_string(r.precision), r.crossings, i.seconds, i.backend, i.kernel);
      if (r.crossings_beyond > 0)
        fmt::print("; {} beyond --max-crossings {} in {} orbits (counted, not kept)",
                   r.crossings_beyond, outcome.section.capacity, r.trajectories_beyond);
      if (!r.drift_max.empty()) fmt::print("; largest |dE/E| {:.3g}", r.drift_max.back());
      fmt::print("\n");
    }
    if (!outcome.section_indicator.name.empty())
      fmt::print("  {}\n", describe_section_indicator(outcome.section_indicator));
    if (!job.out.empty()) fmt::print("  data: {}\n", job.out);
    if (!job.section_plot.empty()) fmt::print("  picture: {}\n", job.section_plot);
    return 0;
  }

 private:
  CLI::App* app_;
  CliParams<EnsembleJob> params_;
  std::string section_ = "x=0", direction_ = "up", plot_, colour_ = "orbit", config_;
};

}  // namespace

std::unique_ptr<Command> make_section_command(CLI::App& parent) {
  return std::make_unique<SectionCommand>(parent);
}

}  // namespace orrery::cli
