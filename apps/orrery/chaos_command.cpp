// SPDX-License-Identifier: MIT
// `orrery chaos`: an indicator of chaos for every start of an ensemble, as a picture of the
// plane and an HDF5 file, with the fraction of starts a threshold calls chaotic. The job
// (jobs/chaos_job.hpp) validates and runs; this face parses, shows progress and prints a summary.
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/jobs/chaos_job.hpp"
#include "progress_line.hpp"

namespace orrery::cli {

namespace {

const EnsembleJob& chaos_ensemble_defaults() {
  static const EnsembleJob defaults = [] {
    EnsembleJob e;
    e.integrators = "";
    return e;
  }();
  return defaults;
}

class ChaosCommand final : public Command {
 public:
  explicit ChaosCommand(CLI::App& parent)
      : app_(parent.add_subcommand(
            "chaos",
            "An indicator of chaos (MEGNO, Lyapunov exponent, FLI, SALI, GALI, spectrum) or the "
            "exit an open system leaves by, for every start of an ensemble: a picture of the "
            "plane of starts and an HDF5 file")),
        params_(*app_, chaos_ensemble_fields(), chaos_ensemble_defaults()) {
    std::string names;
    for (const auto& i : chaos_indicators())
      names += fmt::format("{}{}: {}", names.empty() ? "" : "; ", i.name, i.description);
    app_->add_option("--indicator", job_.indicator, fmt::format("{} (default: megno)", names))
        ->type_name("NAME");
    app_->add_option("--gali-k", job_.gali_k,
                     "gali: the number k of deviation vectors whose volume GALI_k is mapped, from "
                     "2 to the state words (default: 2; every GALI_2..GALI_D is in the file)")
        ->type_name("K");
    app_->add_option("--every", job_.every,
                     "steps between renormalisations of the deviation vectors; divides the "
                     "steps (default: 10)")
        ->type_name("N");
    app_->add_option("--threshold", threshold_,
                     "starts beyond this are chaotic (MEGNO, lyapunov, fli, spectrum: above; "
                     "sali, gali: below; default for sali 1e-8, none for the others): the chaotic "
                     "fraction is printed and stored")
        ->type_name("X");
    app_->add_flag("--exact", job_.exact,
                   "on the GPU, evaluate 1/r^3 with correctly rounded sqrt and division as the "
                   "CPU does (three bodies): the CPU's values bit for bit, slower");
    app_->add_option("--tangent-precision", job_.tangent_precision,
                     "the deviation vectors' words: fp64 (default) or dd, double-double beside "
                     "the fp64 state (sali on the CPU: a chaotic orbit's SALI falls below fp64's "
                     "1e-16 floor, to ~1e-30; one trajectory a thread, ~130x the fp64 lanes' time)")
        ->type_name("fp64|dd");
    app_->add_option("--out", job_.out, "PNG of the indicator over the plane (grid starts)")
        ->type_name("PATH");
    app_->add_option("--data", job_.data, "HDF5 file of every start's values")->type_name("PATH");
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags)")
        ->type_name("FILE");
    app_->footer(fmt::format(
        "Integrators: {} (default yoshida4, rk4 for a first-order system). Example, the SALI map "
        "of the Henon-Heiles section: orrery chaos --problem henon-heiles --energy 0.125 "
        "--plane y:py --resolution 400 --indicator sali --dt 0.01 --t-end 1000 --out sali.png "
        "--data sali.h5",
        fmt::join(chaos_integrator_names(), ", ")));
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    ChaosJob job = job_;
    if (!config_.empty()) apply_config_file(config_, chaos_ensemble_fields(), job.ensemble);
    params_.apply(job.ensemble);
    job.ensemble.config = config_;
    job.overwrite = job.ensemble.overwrite;
    if (!threshold_.empty()) {
      try {
        std::size_t used = 0;
        job.threshold = std::stod(threshold_, &used);
        if (used != threshold_.size()) throw std::invalid_argument(threshold_);
      } catch (const std::exception&) {
        throw ParameterError("--threshold", threshold_, "a number");
      }
    }
    ProgressLine progress(job.ensemble.quiet, "trajectories");
    std::function<void(const EnsembleProgress&)> on_progress;
    if (progress.enabled())
      on_progress = [&](const EnsembleProgress& p) {
        show_trajectories(progress, "chaos " + job.indicator, p);
      };
    const ChaosJobOutcome o = run_chaos_job(job, on_progress);
    progress.finish();
    if (!dist::writes()) return 0;  // rank 0 says what was done
    if (job.ensemble.quiet) return 0;
    const EnsembleRunInfo& i = o.run.info;
    if (!i.note.empty()) std::fprintf(stderr, "orrery chaos: note: %s\n", i.note.c_str());
    const double steps = static_cast<double>(o.run.trajectories) * static_cast<double>(o.steps);
    fmt::print("orrery chaos: {} of {}, {}; {} steps of {} with {}\n", o.indicator.name,
               job.ensemble.problem, o.starts.description, o.steps, job.ensemble.dt,
               o.integrator);
    fmt::print("  {:.4g} trajectory-steps in {:.3f} s ({:.3g}/s) on {} ({}, {} threads)\n", steps,
               i.seconds, i.seconds > 0 ? steps / i.seconds : 0.0, i.backend, i.kernel, i.threads);
    if (o.chaotic_fraction)
      fmt::print("  chaotic ({} {} {}): {:.2f}% of {} starts{}\n", o.indicator.name,
                 chaotic_below(o.indicator.indicator) ? "<" : ">", *o.threshold,
                 100.0 * *o.chaotic_fraction, o.run.trajectories - o.non_finite,
                 o.non_finite > 0 ? fmt::format(" ({} went non-finite)", o.non_finite) : "");
    if (!o.escaped.empty()) {
      static constexpr const char* kChannel[] = {"up", "left", "right", "fourth"};
      std::int64_t left = 0;
      std::string by;
      for (std::size_t c = 0; c < o.escaped.size(); ++c) {
        left += o.escaped[c];
        by += fmt::format("{}{} {}", c ? ", " : "", kChannel[c], o.escaped[c]);
      }
      fmt::print("  escaped: {:.2f}% of {} starts ({}); the others stayed to t = {}\n",
                 100.0 * static_cast<double>(left) / static_cast<double>(o.run.trajectories),
                 o.run.trajectories, by, job.ensemble.dt * static_cast<double>(o.steps));
    }
    if (!job.data.empty()) fmt::print("  data: {}\n", job.data);
    if (!job.out.empty()) fmt::print("  picture: {}\n", job.out);
    return 0;
  }

 private:
  CLI::App* app_;
  CliParams<EnsembleJob> params_;
  ChaosJob job_;
  std::string threshold_, config_;
};

}  // namespace

std::unique_ptr<Command> make_chaos_command(CLI::App& parent) {
  return std::make_unique<ChaosCommand>(parent);
}

}  // namespace orrery::cli
