// SPDX-License-Identifier: MIT
// `orrery map`: the three-body divergence map, from flags and an optional TOML config (flags win),
// to a PNG and optionally an HDF5 file. The job (jobs/map_job.hpp) validates and runs; this face
// parses, shows progress and prints the summary.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/process_clock.hpp"
#include "orrery/dist/communicator.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/jobs/map_job.hpp"
#include "progress_line.hpp"

namespace orrery::cli {

namespace {

// The defaults shown by --help: one object for the command's lifetime (a temporary here trips
// GCC 12's -Wmaybe-uninitialized on its strings).
const MapJob& map_job_defaults() {
  static const MapJob defaults;
  return defaults;
}

class MapCommand final : public Command {
 public:
  explicit MapCommand(CLI::App& parent)
      : fields_(map_job_fields()),
        app_(parent.add_subcommand(
            "map",
            "Three-body divergence map: for each pixel a start of one body; steps until that "
            "system and a slightly shifted twin separate, as a picture")),
        params_(*app_, fields_, map_job_defaults()) {
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags, e.g. "
                                          "steps = 20000); flags override it")
        ->type_name("FILE");
    app_->add_flag("--timings", timings_,
                   "print where the process's time went, in seconds: start-up (to main), set-up "
                   "(arguments and checks), device (setting up the GPUs, where the checks did "
                   "not hide it), compute, writing (PNG and HDF5), release (the GPUs' contexts "
                   "ended), and the total");
    app_->footer(
        "The count of a pixel is the first step n at which |x_b - x_b'| > critical distance for "
        "the varied body b and its twin, or --steps. The picture shows steps - count (black: "
        "never diverged).");
  }

  CLI::App& app() override { return *app_; }

  int run() override {
    MapJob job;
    if (!config_.empty()) apply_config_file(config_, fields_, job);
    params_.apply(job);
    job.config = config_;

    ProgressLine progress(job.quiet, "pixel-steps");
    MapObserver observer;
    if (progress.enabled())
      observer.progress = [&](const MapProgress& p) {
        progress.update(fmt::format("map: pixels {}/{}", p.pixels_done, p.pixels_total),
                        p.pixels_total > 0 ? static_cast<double>(p.pixels_done) /
                                                 static_cast<double>(p.pixels_total)
                                           : 0.0,
                        p.seconds > 0 ? static_cast<double>(p.pixel_steps) / p.seconds : 0.0,
                        p.seconds);
      };
    const MapOutcome outcome = run_map_job(job, observer);
    progress.finish();
    if (!dist::writes()) return 0;  // rank 0 says what was done
    const DivergenceMap& map = outcome.map;

    if (!map.info.note.empty() && !job.quiet)
      std::fprintf(stderr, "orrery map: note: %s\n", map.info.note.c_str());
    if (map.nonfinite_pixels > 0)
      std::fprintf(stderr,
                   "orrery map: %lld pixel(s) produced a non-finite position; each counts as "
                   "diverged at that step and is marked in the nonfinite mask of --data\n",
                   static_cast<long long>(map.nonfinite_pixels));
    if (!job.quiet) {
      const double rate = map.info.wall_seconds > 0
                              ? static_cast<double>(map.pixel_steps) / map.info.wall_seconds
                              : 0.0;
      fmt::print("orrery map: {}x{} pixels, {} steps, {}{} on {} ({}, {} {}): {:.4g} "
                 "pixel-steps in {:.2f} s ({:.3g} pixel-steps/s)\n",
                 map.width, map.height, job.physics.steps, to_string(job.precision),
                 job.deep == DeepMethod::perturbation ? " by perturbation" : "",
                 map.info.backend, map.info.kernel, map.info.threads,
                 map.info.backend == to_string(Backend::cuda) ? "GPUs" : "threads",
                 static_cast<double>(map.pixel_steps), map.info.wall_seconds, rate);
      fmt::print("  picture: {}\n", job.out);
      if (!job.data.empty()) fmt::print("  data:    {}\n", job.data);
    }
    // The files are written and closed: the GPUs' contexts and pinned memory are released here,
    // where --timings can see it (the system would do it at the process's end, unseen), and the
    // process ends without the rest of the runtime's teardown or waiting for its idle threads.
    if (map.info.backend == to_string(Backend::cuda)) release_cuda_devices(job.devices);
    if (timings_) print_timings(outcome.timings);
    std::fflush(nullptr);
    if (dist::in_mpi_job()) return 0;  // through main, whose MpiSession finalises MPI
    std::_Exit(0);
  }

 private:
  // The phases end to end, from the process's start (known to a clock tick) to now, so that
  // they add up to the total.
  static void print_timings(const MapTimings& t) {
    using Clock = MapTimings::Clock;
    const auto seconds = [](Clock::time_point a, Clock::time_point b) {
      return std::chrono::duration<double>(b - a).count();
    };
    const Clock::time_point entered = main_entered();
    const Clock::time_point started = std::min(process_started(), entered);
    const Clock::time_point device_ready =
        t.prepared + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(t.backend_setup_seconds));
    std::fflush(stdout);
    const Clock::time_point now = Clock::now();
    fmt::print("orrery map: timings (s): start-up {:.4f} set-up {:.4f} device {:.4f} compute "
               "{:.4f} writing {:.4f} release {:.4f} total {:.4f}\n",
               seconds(started, entered), seconds(entered, t.checked),
               seconds(t.checked, device_ready), seconds(device_ready, t.computed),
               seconds(t.computed, t.written), seconds(t.written, now), seconds(started, now));
    std::fflush(stdout);
  }

  const std::vector<ParamField<MapJob>>& fields_;
  CLI::App* app_;
  CliParams<MapJob> params_;
  std::string config_;
  bool timings_ = false;
};

}  // namespace

std::unique_ptr<Command> make_map_command(CLI::App& parent) {
  return std::make_unique<MapCommand>(parent);
}

}  // namespace orrery::cli
