// SPDX-License-Identifier: MIT
// `orrery sim`: an N-body run of a scene or a particle file, to a run file of snapshots and
// checkpoints; --resume continues it.
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/error.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/io/orbit_table.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/scenes/scene_registry.hpp"
#include "progress_line.hpp"
#include "scene_options.hpp"
#include "stop_signals.hpp"

namespace orrery::cli {

namespace {

std::string list_text() {
  std::string out = "Scenes (parameters with their defaults):\n\n" + scene_list_text();
  out += "\nIntegrators:\n\n";
  for (const auto& i : integrators())
    out += fmt::format("  {:<17} order {}  {:<22} {:>2} stages  {:<11} {:<9} {:<9} {}\n", i.name,
                       i.order, family_name(i.family), i.stages,
                       i.symplectic ? "symplectic" : "", i.adaptive ? "adaptive" : "",
                       i.implicit ? "implicit" : "", i.description);
  out += "  (adaptive: --tolerance turns on step-size control; explicit methods only so far)\n";
  out += "  (multistep: the first steps, and those after a change of step such as one landing on\n"
         "   an --every-time output, are taken by the starter named)\n";
  out += "  (implicit: the stages are solved by fixed-point iteration to rounding, each sweep\n"
         "   evaluating the forces once per stage that depends on the others)\n";
  out += "\nEngines:\n\n";
  out += force_engines_text();
  const auto runs = supported_cpu_kernel_names();
  out += fmt::format("\nCPU kernels (--cpu-kernel): {}; this CPU runs: {}\n",
                     fmt::join(cpu_kernel_names(), ", "),
                     runs.empty() ? "none of them (built for another CPU's widest)"
                                  : fmt::format("{}", fmt::join(runs, ", ")));
  return out;
}

class SimCommand final : public Command {
 public:
  explicit SimCommand(CLI::App& parent)
      : app_(parent.add_subcommand(
            "sim", "N-body simulation of a scene or a particle file: snapshots, diagnostics, "
                   "checkpoints")),
        params_(*app_, sim_job_fields(), SimJob{}),
        scene_options_(*app_) {
    app_->add_flag("--list", list_, "list scenes, integrators and engines, then exit");
    app_->add_flag("--quiet", quiet_, "no diagnostics table and no progress line");
    app_->add_flag("--orbits", orbits_,
                   "at the end, print every body's orbital elements about its Jacobi primary "
                   "(a, e, inc, Omega, omega, f, P; angles in radians)");
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags); flags "
                                          "override it")
        ->type_name("FILE");
    params_.option("scene")->excludes(params_.option("input"));
    app_->footer("Every scene parameter applies to the scenes that have it (see --list).");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    if (list_) {
      std::fputs(list_text().c_str(), stdout);
      return 0;
    }
    SimJob job;
    if (!config_.empty()) apply_config(job);
    params_.apply(job);
    check_output_is_not_input("--out", job.out, "--config", config_);
    check_output_is_not_input("--out", job.out, "--input", job.input);
    for (const auto& f : sim_job_fields())
      if (params_.option(f.name)->count() > 0) job.given.push_back(f.name);
    scene_options_.apply(job);
    // --units: the two-galaxies scene's own parameter (si or nbody) with that scene, else the
    // units of --input.
    if (!job.units.empty() && !job.scene.empty() && scene_options_.set_text(job, "units", job.units))
      job.units.clear();

    ProgressLine progress(quiet_, "steps");
    SimObserver observer;
    bool header = false;
    if (!quiet_)
      observer.snapshot = [&](std::int64_t index, const Diagnostics& now, const Drift& drift) {
        progress.finish();
        if (!header) {
          std::fputs(fmt::format("{:>8}{}\n", "snapshot", diagnostics_table_header()).c_str(),
                     stdout);
          header = true;
        }
        std::fputs(fmt::format("{:>8}{}\n", index, diagnostics_table_row(now, drift)).c_str(),
                   stdout);
        std::fflush(stdout);
      };
    if (progress.enabled())
      observer.progress = [&](const SimProgress& p) {
        // Simulation time is where the run stands; steps measure the work, and so the time left.
        progress.update(fmt::format("sim: t = {:.6g} of {:.6g}, step {} of {}", p.time, p.t_end,
                                    p.steps_done, p.steps_total),
                        p.steps_total > 0 ? static_cast<double>(p.steps_done) /
                                                static_cast<double>(p.steps_total)
                                          : 0.0,
                        p.seconds > 0 ? static_cast<double>(p.steps_done) / p.seconds : 0.0,
                        p.seconds);
      };
    observer.warning = [&](const std::string& text) {
      progress.finish();
      std::fputs(fmt::format("orrery sim: warning: {}\n", text).c_str(), stderr);
    };
    observer.note = [&](const std::string& text) {
      if (quiet_) return;
      progress.finish();
      std::fputs(fmt::format("orrery sim: note: {}\n", text).c_str(), stderr);
    };
    StopSignals stop_signals;
    observer.stop_signal = &StopSignals::received;
    SimOutcome outcome;
    try {
      outcome = run_simulation(job, observer);
    } catch (const ParameterError& e) {
      scene_options_.rethrow_as_flag(e);
    }
    progress.finish();
    // Over the ranks of mpirun, rank 0 alone speaks.
    if (!dist::writes()) return outcome.signal != 0 ? 128 + outcome.signal : 0;
    if (outcome.signal != 0) {
      std::fputs(fmt::format("orrery sim: stopped by {} at t = {} after a checkpoint; --resume "
                             "--out {} continues\n",
                             StopSignals::name(outcome.signal), outcome.time, job.out)
                     .c_str(),
                 stderr);
      return 128 + outcome.signal;
    }
    if (!quiet_ && !outcome.threads_note.empty())
      std::fputs(fmt::format("orrery sim: note: {}\n", outcome.threads_note).c_str(), stderr);
    if (!quiet_ && !outcome.tree_setting.empty())
      std::fputs(fmt::format("orrery sim: --accuracy {:g}: {}\n", job.accuracy,
                             outcome.tree_setting)
                     .c_str(),
                 stderr);
    if (!quiet_ && !outcome.potential_method.empty() && outcome.potential_method != "pairs")
      std::fputs(fmt::format("orrery sim: note: the potential energy W (and E) come from the "
                             "engine's {}, not from an exact pair sum\n",
                             outcome.potential_method)
                     .c_str(),
                 stderr);
    if (!quiet_ && outcome.steps == 0 && outcome.backend.empty())  // resumed at its end
      fmt::print("orrery sim: the run in {} has reached its end, t = {}, already: nothing to do "
                 "({} snapshots)\n",
                 job.out, outcome.time, outcome.snapshots);
    else if (!quiet_)
      fmt::print("orrery sim: {} steps to t = {} on {} ({} kernel); {} snapshots in {}{}\n",
                 outcome.steps, outcome.time, outcome.backend, outcome.cpu_kernel,
                 outcome.snapshots, job.out,
                 outcome.stopped_early ? " (stopped by --stop-after; --resume continues)" : "");
    if (!quiet_ && outcome.merged > 0)
      fmt::print("orrery sim: {} merges; {} bodies now\n", outcome.merged, outcome.bodies);
    if (orbits_) {  // the run's last snapshot, read back as any later reader would
      const auto snapshots = run_snapshots(job.out);
      if (!snapshots.empty()) {
        const InitialConditions last = read_particle_file(snapshot_path(job.out, snapshots.back()));
        fmt::print("orbits at t = {} (about each body's Jacobi primary, G = {}):\n{}", last.time,
                   last.g, orbit_table(last.particles, last.g, last.time));
      }
    }
    return 0;
  }

 private:
  void apply_config(SimJob& job) {
    std::vector<const ParamSpec*> specs;
    for (const auto& f : sim_job_fields()) specs.push_back(&f);
    for (const auto& s : scene_options_.specs()) specs.push_back(&s);
    for (const auto& e : read_config_file(config_, specs)) {
      const auto* f = find_field(sim_job_fields(), e.spec->name);
      try {
        if (f) {
          f->set(job, e.value);
          job.given.push_back(f->name);
        } else {
          SceneOptions::set(job, e.spec->name, e.value);
        }
      } catch (const ParameterError& err) {
        throw err.renamed(e.where);
      }
    }
  }

  CLI::App* app_;
  CliParams<SimJob> params_;
  SceneOptions scene_options_;
  bool list_ = false;
  bool quiet_ = false;
  bool orbits_ = false;
  std::string config_;
};

}  // namespace

std::unique_ptr<Command> make_sim_command(CLI::App& parent) {
  return std::make_unique<SimCommand>(parent);
}

}  // namespace orrery::cli
