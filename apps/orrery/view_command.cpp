// SPDX-License-Identifier: MIT
// `orrery view`: a window on a live simulation (the scene, engine, integrator and backend flags
// of `orrery sim`) or on a run's snapshots; --screenshot with --exit-after-frames saves what
// it shows and exits.
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/error.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/jobs/view_job.hpp"
#include "scene_options.hpp"
#include "view/view_window.hpp"

namespace orrery::cli {

namespace {

class ViewCommand final : public Command {
 public:
  explicit ViewCommand(CLI::App& parent)
      : app_(parent.add_subcommand(
            "view", "a window on a live simulation (orrery sim's flags) or on a run's "
                    "snapshots: drag to turn, wheel to zoom, space to pause")),
        sim_params_(*app_, view_sim_fields(), SimJob{}),
        scene_options_(*app_),
        view_params_(*app_, view_job_fields(), ViewJob{}) {
    app_->add_option("RUN", run_, "a run folder of orrery sim to scrub through (instead of "
                                  "--scene or --input)")
        ->type_name("RUN");
    app_->add_option("--width", window_.width, "window width, pixels (default: 1280)")
        ->type_name("N")
        ->check(CLI::Range(16, 8192).description(""));
    app_->add_option("--height", window_.height, "window height, pixels (default: 720)")
        ->type_name("N")
        ->check(CLI::Range(16, 8192).description(""));
    app_->add_option("--screenshot", window_.screenshot,
                     "write the last frame drawn as a PNG (with --exit-after-frames)")
        ->type_name("FILE");
    app_->add_flag("--overwrite", window_.overwrite,
                   "replace --screenshot where it exists (without it, it is refused)");
    app_->add_option("--exit-after-frames", window_.exit_after_frames,
                     "close after this many frames, each showing the next state")
        ->type_name("N")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40).description(""));
    app_->add_flag("--quiet", quiet_, "no summary");
    app_->footer("Keys: space pause/play, right/left (or . and ,) step while paused, + and - "
                 "speed, r reset the camera, q or Esc quit. See docs/guide/view.md.");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    ViewJob job;
    sim_params_.apply(job.sim);
    scene_options_.apply(job.sim);
    // --units: the two-galaxies scene's own parameter with that scene, else --input's units.
    if (!job.sim.units.empty() && !job.sim.scene.empty() &&
        scene_options_.set_text(job.sim, "units", job.sim.units))
      job.sim.units.clear();
    view_params_.apply(job);
    job.run = run_;
    if (!job.run.empty() && (!job.sim.scene.empty() || !job.sim.input.empty()))
      throw ParameterError("RUN", job.run, "a run, or --scene or --input, not both");
    if (job.run.empty() && job.sim.scene.empty() && job.sim.input.empty())
      throw ParameterError("RUN/--scene/--input", "none",
                           "a run folder to scrub through, or --scene NAME or --input FILE to "
                           "simulate");
    if (app_->count("--screenshot") > 0) {
      // The rules of every output (io/output_path.hpp): never an input, never a file that
      // exists unless --overwrite.
      check_output("--screenshot", window_.screenshot, window_.overwrite,
                   {{"--input", job.sim.input}, {"RUN", job.run}});
      if (window_.exit_after_frames == 0)
        throw ParameterError("--screenshot", window_.screenshot,
                             "a file with --exit-after-frames N (the frame it shows)");
    }
#if !ORRERY_HAVE_WINDOW
    throw RunError("this orrery was built without window support (GLFW and OpenGL): install "
                   "libglfw3-dev (scripts/setup does) and build again");
#else
    std::unique_ptr<ViewSession> session;
    try {
      session = std::make_unique<ViewSession>(job);
    } catch (const ParameterError& e) {
      scene_options_.rethrow_as_flag(e);
    }
    const view::WindowOutcome out = view::run_view_window(*session, window_);
    if (!quiet_ && window_.exit_after_frames > 0 && out.seconds > 0)
      fmt::print("orrery view: {} frames in {:.3f} s ({:.1f} frames/s){}\n", out.frames,
                 out.seconds, (out.frames - 1) / out.seconds,
                 window_.screenshot.empty() ? "" : "; the last in " + window_.screenshot);
    return 0;
#endif
  }

 private:
  CLI::App* app_;
  CliParams<SimJob> sim_params_;
  SceneOptions scene_options_;
  CliParams<ViewJob> view_params_;
  std::string run_;
  bool quiet_ = false;
  view::WindowOptions window_;
};

}  // namespace

std::unique_ptr<Command> make_view_command(CLI::App& parent) {
  return std::make_unique<ViewCommand>(parent);
}

}  // namespace orrery::cli
