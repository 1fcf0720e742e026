// SPDX-License-Identifier: MIT
// `orrery zoom`: a sequence of divergence maps whose windows shrink geometrically toward a point,
// as numbered PNG frames (and HDF5 counts) and an MP4. The job (jobs/zoom_job.hpp) validates,
// resumes and runs; this face parses, shows progress and prints the summary.
#include <cstdio>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/jobs/zoom_job.hpp"
#include "progress_line.hpp"
#include "stop_signals.hpp"

namespace orrery::cli {

namespace {

// The defaults shown by --help, one object for the command's lifetime (as map_command.cpp).
const ZoomJob& zoom_job_defaults() {
  static const ZoomJob defaults;
  return defaults;
}

class ZoomCommand final : public Command {
 public:
  explicit ZoomCommand(CLI::App& parent)
      : fields_(zoom_job_fields()),
        app_(parent.add_subcommand(
            "zoom", "A zoom into the divergence map: frames whose windows shrink geometrically "
                    "toward --center, as PNG frames, optional HDF5 counts and an MP4")),
        params_(*app_, fields_, zoom_job_defaults()) {
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags); flags "
                                          "override it")
        ->type_name("FILE");
    app_->footer(
        "Frame k's window is W_k = W0 (W1/W0)^(k/(K-1)) wide around --center, with the map's "
        "pixels square; its counts are those of orrery map for that window. With --steps-to "
        "the steps grow from --steps at the first frame to it at the last (--steps-growth). "
        "Every frame uses one colour scale, S - count over 0..S with S the most steps of any "
        "frame, so a count has one colour and nothing flickers. Run again "
        "with the same parameters, a zoom keeps the frames already made and resumes at the "
        "first missing one. Without ffmpeg the frames are written and the command that "
        "encodes them is printed.");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    ZoomJob job;
    if (!config_.empty()) apply_config_file(config_, fields_, job);
    params_.apply(job);
    job.map.config = config_;

    ProgressLine progress(job.map.quiet, "pixel-steps");
    ZoomObserver observer;
    if (progress.enabled())
      observer.progress = [&](const ZoomProgress& p) {
        progress.update(fmt::format("zoom: frame {}/{}", p.frame + 1, job.frames), p.fraction,
                        p.seconds > 0 ? static_cast<double>(p.pixel_steps) / p.seconds : 0.0,
                        p.seconds);
      };
    StopSignals stop_signals;
    observer.stop = [] { return StopSignals::received() != 0; };
    const ZoomOutcome r = run_zoom_job(job, observer);
    progress.finish();
    if (!dist::writes()) return 0;  // rank 0 says what was done

    if (r.stopped) {
      const int signal = StopSignals::received();
      std::fputs(fmt::format("orrery zoom: stopped by {} after {} frames of {}; the same command "
                             "resumes at the first missing frame\n",
                             StopSignals::name(signal), r.frames_kept + r.frames_computed,
                             job.frames)
                     .c_str(),
                 stderr);
      return 128 + signal;
    }
    if (!r.info.note.empty() && !job.map.quiet)
      std::fprintf(stderr, "orrery zoom: note: %s\n", r.info.note.c_str());
    if (!r.note.empty()) std::fprintf(stderr, "orrery zoom: note: %s\n", r.note.c_str());
    if (r.nonfinite_pixels > 0)
      std::fprintf(stderr,
                   "orrery zoom: %lld pixel(s) of the frames made produced a non-finite "
                   "position; each counts as diverged at that step and is marked in the "
                   "nonfinite mask of its frame's data (--data-dir)\n",
                   static_cast<long long>(r.nonfinite_pixels));
    if (!job.map.quiet) {
      const std::int64_t first = zoom_steps(job, 0), last = zoom_steps(job, job.frames - 1);
      fmt::print("orrery zoom: {} frames of {}x{} pixels, {} steps, widths {} to {} around "
                 "{}:{}; {} made now, {} kept from before\n",
                 job.frames, job.map.physics.width, job.map.physics.height,
                 first == last ? fmt::format("{}", first)
                               : fmt::format("{} to {} ({})", first, last,
                                             job.steps_growth == ZoomStepsGrowth::linear
                                                 ? "linear"
                                                 : "geometric"),
                 job.from_width, job.to_width, job.center[0],
                 job.center[1], r.frames_computed, r.frames_kept);
      if (r.frames_computed > 0)
        fmt::print("  computed on {} ({}, {} {}): {:.4g} pixel-steps in {:.2f} s ({:.3g} "
                   "pixel-steps/s)\n",
                   r.info.backend, r.info.kernel, r.info.threads,
                   r.info.backend == to_string(Backend::cuda) ? "GPUs" : "threads",
                   static_cast<double>(r.pixel_steps), r.compute_seconds,
                   r.compute_seconds > 0 ? static_cast<double>(r.pixel_steps) / r.compute_seconds
                                         : 0.0);
      fmt::print("  frames: {}/frame_NNNNNN.png\n", r.frames_dir);
      if (!job.data_dir.empty()) fmt::print("  data:   {}/frame_NNNNNN.h5\n", job.data_dir);
      if (!r.movie.empty()) fmt::print("  movie:  {}\n", r.movie);
    }
    return 0;
  }

 private:
  const std::vector<ParamField<ZoomJob>>& fields_;
  CLI::App* app_;
  CliParams<ZoomJob> params_;
  std::string config_;
};

}  // namespace

std::unique_ptr<Command> make_zoom_command(CLI::App& parent) {
  return std::make_unique<ZoomCommand>(parent);
}

}  // namespace orrery::cli
