// SPDX-License-Identifier: MIT
// `orrery forces`: accelerations and potentials of a particle file by any engine, timed.
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/jobs/forces_job.hpp"

namespace orrery::cli {

namespace {

class ForcesCommand final : public Command {
 public:
  explicit ForcesCommand(CLI::App& parent)
      : app_(parent.add_subcommand(
            "forces", "Accelerations and potentials of a particle file by a force engine, "
                      "timed: how engines are compared")),
        params_(*app_, forces_job_fields(), ForcesJob{}) {
    app_->footer(
        "Writes datasets 'acceleration' (N x 3) and 'potential' (N) in the input's body order. "
        "With --repeat K the evaluation runs K times and the medians are printed.");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    ForcesJob job;
    params_.apply(job);
    const ForcesOutcome r = run_forces_job(job);
    if (job.quiet) return 0;
    if (!r.note.empty()) std::fprintf(stderr, "orrery forces: note: %s\n", r.note.c_str());
    fmt::print("orrery forces: {} bodies, {} engine on {}, {}; G = {} ({}), softening = {} ({})\n",
               r.n, r.engine, r.backend, to_string(job.precision), r.g, r.g_from, r.softening,
               r.softening_from);
    fmt::print("  median of {}: {:.6f} s  (upload {:.6f} s, tree build {:.6f} s, force pass "
               "{:.6f} s)\n",
               job.repeat, r.median_seconds, r.median_parts.upload, r.median_parts.build,
               r.median_parts.force);
    if (!r.tree_setting.empty())
      fmt::print("  --accuracy {:g}: {} (chosen in {:.3f} s)\n", job.accuracy, r.tree_setting,
                 r.setting_seconds);
    if (r.interactions_per_second > 0)
      fmt::print("  {:.4g} interactions/s\n", r.interactions_per_second);
    fmt::print("  written: {}\n", job.out);
    return 0;
  }

 private:
  CLI::App* app_;
  CliParams<ForcesJob> params_;
};

}  // namespace

std::unique_ptr<Command> make_forces_command(CLI::App& parent) {
  return std::make_unique<ForcesCommand>(parent);
}

}  // namespace orrery::cli
