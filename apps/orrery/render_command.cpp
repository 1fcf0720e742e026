// SPDX-License-Identifier: MIT
// `orrery render RUN`: a run's snapshots as a movie (MP4) and PNG frames, headless.
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/jobs/render_job.hpp"
#include "stop_signals.hpp"

namespace orrery::cli {

namespace {

class RenderCommand final : public Command {
 public:
  explicit RenderCommand(CLI::App& parent)
      : app_(parent.add_subcommand("render", "A run's snapshots as a movie: one frame per "
                                             "snapshot, bodies splatted on a logarithmic "
                                             "brightness scale")),
        params_(*app_, render_job_fields(), RenderJob{}) {
    app_->add_option("run", run_, "the run folder (orrery sim --out)")->required();
    app_->footer("Encodes with the ffmpeg program (H.264). Without ffmpeg the frames are written "
                 "as PNG and the command that encodes them is printed.");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    RenderJob job;
    params_.apply(job);
    job.run = run_;
    StopSignals stop_signals;
    job.stop = [] { return StopSignals::received() != 0; };
    const RenderOutcome r = run_render_job(job);
    for (const auto& note : r.notes) std::fprintf(stderr, "orrery render: note: %s\n", note.c_str());
    if (r.stopped) {
      const int signal = StopSignals::received();
      std::fprintf(stderr, "orrery render: stopped by %s after %lld frames; no movie written\n",
                   StopSignals::name(signal), static_cast<long long>(r.frames));
      return 128 + signal;
    }
    if (job.quiet) return 0;
    fmt::print("orrery render: {} frames, drawn at {:.1f} frames/s\n", r.frames,
               r.draw_seconds > 0 ? r.frames / r.draw_seconds : 0.0);
    if (!r.movie.empty()) fmt::print("  written: {}\n", r.movie);
    if (!r.frames_dir.empty()) fmt::print("  frames: {}/frame_NNNNNN.png\n", r.frames_dir);
    return 0;
  }

 private:
  CLI::App* app_;
  CliParams<RenderJob> params_;
  std::string run_;
};

}  // namespace

std::unique_ptr<Command> make_render_command(CLI::App& parent) {
  return std::make_unique<RenderCommand>(parent);
}

}  // namespace orrery::cli
