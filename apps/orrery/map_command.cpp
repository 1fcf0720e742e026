// SPDX-License-Identifier: MIT
// `orrery map`: the three-body divergence map, from flags and an optional TOML config (flags win),
// to a PNG and optionally an HDF5 file.
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "cli_params.hpp"
#include "command.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/io/atomic_file.hpp"
#include "orrery/io/config_file.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/render/divergence_image.hpp"
#include "progress_line.hpp"

namespace orrery::cli {

namespace {

struct MapJob {
  DivergenceMapParams physics;
  Backend backend = Backend::automatic;
  Precision precision = Precision::fp64;
  std::int64_t threads = 0;
  std::string cpu_kernel;
  std::vector<int> devices;  // empty: all
  bool exact = false;
  std::string out = "map.png";
  std::string data;
  std::string colormap = "inferno";
  ImageOrigin origin = ImageOrigin::upper;
  bool quiet = false;
};

std::vector<int> parse_devices(const std::string& text) {
  std::vector<int> devices;
  if (text == "all") return devices;
  ParamSpec spec;
  spec.name = "devices";
  spec.kind = ParamKind::Reals;
  try {
    const ParamValue numbers = parse_param_text(spec, text);
    for (double d : std::get<std::vector<double>>(numbers)) {
      if (d < 0 || d != static_cast<int>(d)) throw ParameterError("devices", text, "");
      devices.push_back(static_cast<int>(d));
    }
  } catch (const ParameterError&) {
    throw ParameterError("devices", text, "all, or device numbers separated by ','");
  }
  return devices;
}

std::vector<ParamField<MapJob>> map_job_fields() {
  auto fields = project_fields(divergence_map_fields(), &MapJob::physics);
  fields.push_back(choice_field("backend", "where to compute", &MapJob::backend, backend_names()));
  fields.push_back(choice_field("precision",
                                "fp64 (reference), fp32, or mixed (fp64 state, fp32 1/r^3)",
                                &MapJob::precision, precision_names()));
  fields.push_back(integer_field("threads", "CPU threads (default: all cores)", &MapJob::threads,
                                 1, 4096));
  {
    auto k = text_field("cpu-kernel", "CPU instruction set (default: the widest this CPU runs)",
                        &MapJob::cpu_kernel);
    k.kind = ParamKind::Choice;
    k.choices = cpu_kernel_names();
    fields.push_back(std::move(k));
  }
  {
    ParamField<MapJob> d{"devices", "CUDA devices: all, or numbers such as 0,2", ParamKind::Text};
    d.set = [](MapJob& job, const ParamValue& v) { job.devices = parse_devices(std::get<std::string>(v)); };
    d.get = [](const MapJob& job) {
      std::string s;
      for (int i : job.devices) s += (s.empty() ? "" : ",") + std::to_string(i);
      return ParamValue{s.empty() ? std::string("all") : s};
    };
    fields.push_back(std::move(d));
  }
  fields.push_back(flag_field("exact",
                              "on the GPU, evaluate 1/r^3 with correctly rounded sqrt and "
                              "division as the CPU does: bit-identical counts, slower",
                              &MapJob::exact));
  fields.push_back(text_field("out", "PNG picture to write", &MapJob::out));
  fields.push_back(text_field("data", "HDF5 file for the counts and parameters (default: none)",
                              &MapJob::data));
  {
    auto c = text_field("colormap", "colour map", &MapJob::colormap);
    c.kind = ParamKind::Choice;
    c.choices = Colormap::names();
    fields.push_back(std::move(c));
  }
  fields.push_back(choice_field("origin", "where row 0 (the smallest y) goes: top or bottom",
                                &MapJob::origin, {"upper", "lower"}));
  fields.push_back(flag_field("quiet", "no progress line and no summary", &MapJob::quiet));
  return fields;
}

class MapCommand final : public Command {
 public:
  explicit MapCommand(CLI::App& parent)
      : fields_(map_job_fields()),
        app_(parent.add_subcommand(
            "map",
            "Three-body divergence map: for each pixel a start of one body; steps until that "
            "system and a slightly shifted twin separate, as a picture")),
        params_(*app_, fields_, MapJob{}) {
    app_->add_option("--config", config_, "TOML file of parameters (keys as the flags, e.g. "
                                          "steps = 20000); flags override it")
        ->type_name("FILE");
    params_.option("resolution")->excludes(params_.option("width"));
    params_.option("resolution")->excludes(params_.option("height"));
    params_.option("shift")->excludes(params_.option("shift-vector"));
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
    validate(job.physics);
    const Colormap& colormap = Colormap::by_name(job.colormap);
    check_output_path("--out", job.out);
    if (!job.data.empty()) {
      check_output_path("--data", job.data);
      if (std::filesystem::absolute(job.data) == std::filesystem::absolute(job.out))
        throw ParameterError("--data", job.data, "a path other than --out");
    }

    ProgressLine progress(job.quiet, "map: pixels", "pixel-steps");
    MapRunOptions options;
    options.backend = job.backend;
    options.precision = job.precision;
    options.threads = static_cast<int>(job.threads);
    options.cpu_kernel = job.cpu_kernel;
    options.devices = job.devices;
    options.exact_gpu = job.exact;
    if (progress.enabled())
      options.progress = [&](const MapProgress& p) {
        progress.update(p.pixels_done, p.pixels_total,
                        p.seconds > 0 ? static_cast<double>(p.pixel_steps) / p.seconds : 0.0,
                        p.seconds);
      };
    const DivergenceMap map = compute_divergence_map(job.physics, options);
    progress.finish();

    write_png(job.out, render_divergence_image(map.counts, map.width, map.height,
                                               job.physics.steps, colormap, job.origin));
    if (!job.data.empty()) write_divergence_map_file(job.data, job.physics, job.precision, map);

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
      fmt::print("orrery map: {}x{} pixels, {} steps, {} on {} ({}, {} {}): {:.4g} "
                 "pixel-steps in {:.2f} s ({:.3g} pixel-steps/s)\n",
                 map.width, map.height, job.physics.steps, to_string(job.precision),
                 map.info.backend, map.info.kernel, map.info.threads,
                 map.info.backend == "cuda" ? "GPUs" : "threads",
                 static_cast<double>(map.pixel_steps), map.info.wall_seconds, rate);
      fmt::print("  picture: {}\n", job.out);
      if (!job.data.empty()) fmt::print("  data:    {}\n", job.data);
    }
    return 0;
  }

 private:
  std::vector<ParamField<MapJob>> fields_;
  CLI::App* app_;
  CliParams<MapJob> params_;
  std::string config_;
};

}  // namespace

std::unique_ptr<Command> make_map_command(CLI::App& parent) {
  return std::make_unique<MapCommand>(parent);
}

}  // namespace orrery::cli
