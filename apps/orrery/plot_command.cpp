// SPDX-License-Identifier: MIT
// `orrery plot RUN`: a run's drifts and Lagrangian radii against time, as PNG.
#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/jobs/plot_job.hpp"

namespace orrery::cli {

namespace {

class PlotCommand final : public Command {
 public:
  explicit PlotCommand(CLI::App& parent)
      : app_(parent.add_subcommand("plot", "A run's energy drift and, for clusters, its "
                                           "Lagrangian radii against time, as PNG")),
        params_(*app_, plot_job_fields(), PlotJob{}) {
    app_->add_option("run", run_, "the run folder (orrery sim --out)")->required();
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    PlotJob job;
    params_.apply(job);
    job.run = run_;
    const PlotOutcome r = run_plot_job(job);
    if (!job.quiet)
      for (const auto& f : r.written) fmt::print("orrery plot: {} ({} points a curve)\n", f, r.rows);
    return 0;
  }

 private:
  CLI::App* app_;
  CliParams<PlotJob> params_;
  std::string run_;
};

}  // namespace

std::unique_ptr<Command> make_plot_command(CLI::App& parent) {
  return std::make_unique<PlotCommand>(parent);
}

}  // namespace orrery::cli
