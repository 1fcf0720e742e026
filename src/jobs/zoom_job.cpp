// SPDX-License-Identifier: MIT
// The parameters of `orrery zoom`, the frames' windows and their check; the run is zoom_run.cpp.
#include "orrery/jobs/zoom_job.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "orrery/core/double_double.hpp"
#include "orrery/core/error.hpp"
#include "orrery/dist/map_over_ranks.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/jobs/map_job.hpp"
#include "orrery/render/colormap.hpp"
#include "orrery/render/divergence_image.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

using J = ZoomJob;

// The map's fields that the zoom sets itself: the window (from --center and the widths) and the
// outputs (one per frame).
const std::set<std::string> kMapFieldsNotInZoom = {"x-range", "y-range", "out", "data",
                                                    "overwrite"};

// A pixel's start is its coordinate rounded to the precision, half a unit of rounding off; at
// 16 units per pixel every start lies within 1/32 of a pixel of its place, so neighbouring
// pixels start from distinct, evenly spaced points.
constexpr double kLeastPixelRoundings = 16;

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<MapJob>> map_fields;
  for (const auto& f : map_job_fields())
    if (!kMapFieldsNotInZoom.count(f.name)) map_fields.push_back(f);
  auto f = project_fields(map_fields, &J::map);
  {
    ParamField<J> c{"center",
                    "the point every window is centred on, X:Y (the plane's axes), or "
                    "X:Y:X_LOW:Y_LOW, a point in double-double for the deep zooms (--precision "
                    "dd, --deep perturbation)",
                    ParamKind::Reals, 0, ':'};
    c.set = [](J& j, const ParamValue& v) {
      const auto* xs = std::get_if<std::vector<double>>(&v);
      const std::size_t n = xs && xs->size() == 4 ? 4 : 2;
      const auto all = require_reals("center", v, n, RealRule::Finite);
      j.center = {all[0], all[1]};
      j.center_low = n == 4 ? std::array<double, 2>{all[2], all[3]} : std::array<double, 2>{};
    };
    c.get = [](const J& j) {
      if (j.center_low[0] == 0 && j.center_low[1] == 0)
        return ParamValue{std::vector<double>{j.center[0], j.center[1]}};
      return ParamValue{
          std::vector<double>{j.center[0], j.center[1], j.center_low[0], j.center_low[1]}};
    };
    f.push_back(std::move(c));
  }
  f.push_back(real_field("from-width", "width of the first frame's window", &J::from_width,
                         RealRule::Positive));
  f.push_back(real_field("to-width", "width of the last frame's window", &J::to_width,
                         RealRule::Positive));
  f.push_back(integer_field("frames", "number of frames K; the widths shrink geometrically",
                            &J::frames, 1, kMaxZoomFrames));
  f.push_back(flag_field("scale-shift",
                         "shrink the twin's shift with the window (shift x W_k / W_0), as the "
                         "published zoom does",
                         &J::scale_shift));
  f.push_back(integer_field("steps-to",
                            "the last frame's step count: the steps grow from --steps at the "
                            "first frame to it (0, the default: every frame takes --steps)",
                            &J::steps_to, 0, std::numeric_limits<std::int32_t>::max()));
  f.push_back(choice_field("steps-growth",
                           "how the steps grow with the frame: linear (as published: linear "
                           "in the depth) or geometric (the same factor each frame)",
                           &J::steps_growth, {"linear", "geometric"}));
  f.push_back(path_field("out", "the movie, MP4 (H.264)", &J::out));
  f.push_back(path_field("frames-dir",
                         "folder of the frames DIR/frame_NNNNNN.png and of the zoom's record "
                         "(default: OUT without .mp4, + _frames)",
                         &J::frames_dir));
  f.push_back(path_field("data-dir", "folder for each frame's counts, DIR/frame_NNNNNN.h5 "
                                     "(default: none)",
                         &J::data_dir));
  f.push_back(integer_field("fps", "frames per second of the movie", &J::fps, 1, 240));
  f.push_back(flag_field("overwrite",
                         "start again: replace --out, discard the frames already made",
                         &J::overwrite));
  return f;
}

// The spacing between the values a precision holds at coordinates up to `reach`.
double resolved_step(Precision p, double reach) {
  const double epsilon = p == Precision::fp32 ? std::numeric_limits<float>::epsilon()
                         : p == Precision::dd ? kDoubleDoubleEpsilon
                                              : std::numeric_limits<double>::epsilon();
  return epsilon * reach;
}

// The window of the narrowest frame has the finest pixels: at its coordinates they must span
// enough units of rounding of the precision the starts are computed in. A window too narrow
// for the precision asked is refused naming the one that resolves it, if any does.
void check_resolvable(const ZoomJob& job) {
  const DivergenceMapParams& p = job.map.physics;
  const bool last = job.frames > 1 && job.to_width < job.from_width;
  const double width = last ? job.to_width : job.from_width;
  const ZoomWindow w = zoom_window(job.center, width, p.width, p.height);
  const double reach = std::max({std::abs(w.x_range[0]), std::abs(w.x_range[1]),
                                 std::abs(w.y_range[0]), std::abs(w.y_range[1])});
  const auto least = [&](Precision q) {
    return kLeastPixelRoundings * resolved_step(q, reach) * p.width;
  };
  if (job.map.deep == DeepMethod::perturbation) {
    // Every pixel's start is an fp64 difference from the centre: any width resolves, so long
    // as the reference trajectory can be computed as finely as the window needs.
    const DivergenceSetup s = make_divergence_setup(zoom_frame_params(job, last ? job.frames - 1 : 0));
    const int bits = reference_bits(s);
    if (bits <= reference_bits_available()) return;
    throw ParameterError(last ? "--to-width" : "--from-width", fmt::format("{}", width),
                         fmt::format("a width whose reference trajectory needs at most {} bits "
                                     "(double-double; this one needs {}): this build has no "
                                     "MPFR (Debian's libmpfr-dev, libmpfrc++-dev)",
                                     reference_bits_available(), bits));
  }
  if (width >= least(job.map.precision)) return;
  const std::string finer =
      job.map.precision == Precision::dd
          ? " (--deep perturbation, fp64 differences from an accurate reference trajectory "
            "on the CPU or GPU, resolves it)"
          : width >= least(Precision::dd)
                ? " (--deep perturbation, on the CPU or GPU, or --precision dd, "
                  "double-double on the CPU, resolves it)"
                : " (--deep perturbation, on the CPU or GPU, resolves it)";
  throw ParameterError(
      last ? "--to-width" : "--from-width", fmt::format("{}", width),
      fmt::format("a width >= {:.3g} here: at coordinates up to {:.6g}, {} resolves steps of "
                  "{:.3g}, and each of the {} pixels across must span {} of them{}",
                  least(job.map.precision), reach, to_string(job.map.precision),
                  resolved_step(job.map.precision, reach), p.width, kLeastPixelRoundings, finer));
}

void check_folder(const char* flag, const std::string& folder) {
  std::error_code ec;
  if (fs::exists(folder, ec) && !fs::is_directory(folder, ec))
    throw ParameterError(flag, folder, "a folder, or a path where one can be made");
}

}  // namespace

const std::vector<ParamField<ZoomJob>>& zoom_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

double zoom_width(double from_width, double to_width, std::int64_t frames, std::int64_t k) {
  if (k <= 0 || frames <= 1) return from_width;
  if (k >= frames - 1) return to_width;
  return from_width *
         std::pow(to_width / from_width, static_cast<double>(k) / static_cast<double>(frames - 1));
}

ZoomWindow zoom_window(std::array<double, 2> center, double width, std::int32_t pixels_x,
                       std::int32_t pixels_y, std::array<double, 2> center_low) {
  const double height = width * pixels_y / pixels_x;
  ZoomWindow w;
  // Each end is the fp64 sum (as it always was) and that sum's rounding error; with a centre in
  // double-double, their sum in double-double.
  const auto end = [](double c, double c_low, double offset, double& hi, double& lo) {
    if (c_low == 0) {
      double_word::two_sum(c, offset, hi, lo);
      return;
    }
    const DoubleDouble<double> e = DoubleDouble<double>(c, c_low) + DoubleDouble<double>(offset);
    hi = e.hi, lo = e.lo;
  };
  end(center[0], center_low[0], -width / 2, w.x_range[0], w.x_range_low[0]);
  end(center[0], center_low[0], width / 2, w.x_range[1], w.x_range_low[1]);
  end(center[1], center_low[1], -height / 2, w.y_range[0], w.y_range_low[0]);
  end(center[1], center_low[1], height / 2, w.y_range[1], w.y_range_low[1]);
  return w;
}

std::int64_t zoom_steps(const ZoomJob& job, std::int64_t k) {
  const std::int64_t first = job.map.physics.steps;
  const std::int64_t last = job.steps_to > 0 ? job.steps_to : first;
  if (k <= 0 || job.frames <= 1) return first;
  if (k >= job.frames - 1) return last;
  const double along = static_cast<double>(k) / static_cast<double>(job.frames - 1);
  const double a = static_cast<double>(first), b = static_cast<double>(last);
  const double steps = job.steps_growth == ZoomStepsGrowth::linear ? a + (b - a) * along
                                                                   : a * std::pow(b / a, along);
  return std::llround(steps);
}

std::int64_t zoom_most_steps(const ZoomJob& job) {
  // Both schedules are monotone: the largest is at one end.
  return std::max(zoom_steps(job, 0), zoom_steps(job, job.frames - 1));
}

DivergenceMapParams zoom_frame_params(const ZoomJob& job, std::int64_t k) {
  DivergenceMapParams p = job.map.physics;
  p.steps = zoom_steps(job, k);
  const double width = zoom_width(job.from_width, job.to_width, job.frames, k);
  const bool deep =
      job.map.precision == Precision::dd || job.map.deep == DeepMethod::perturbation;
  const ZoomWindow w = zoom_window(job.center, width, p.width, p.height,
                                   deep ? job.center_low : std::array<double, 2>{0.0, 0.0});
  p.x_range = w.x_range;
  p.y_range = w.y_range;
  if (deep) {
    p.x_range_low = w.x_range_low;
    p.y_range_low = w.y_range_low;
  }
  if (job.scale_shift) p.shift = (width / job.from_width) * p.shift;
  return p;
}

std::string zoom_frames_dir(const ZoomJob& job) {
  if (!job.frames_dir.empty()) return job.frames_dir;
  const fs::path out(job.out);
  return (out.parent_path() / (out.stem().string() + "_frames")).string();
}

std::string zoom_frame_name(std::int64_t k, const char* extension) {
  return fmt::format("frame_{:06}.{}", k, extension);
}

void validate(const ZoomJob& job) {
  // The zoom's own parameters set in code bypass the setters' rules: apply them again (the
  // map's are checked as the map checks them). An empty folder set in code means none (or the
  // default), which a user cannot say with an empty name.
  ZoomJob copy = job;
  for (const auto& field : zoom_job_fields()) {
    if (!field.get || (!kMapFieldsNotInZoom.count(field.name) &&
                       find_field(map_job_fields(), field.name)))
      continue;
    const ParamValue value = field.get(job);
    if (field.kind == ParamKind::Text && std::get<std::string>(value).empty()) continue;
    try {
      field.set(copy, value);
    } catch (const ParameterError& e) {
      throw e.renamed("--" + field.name);
    }
  }
  const DivergenceMapParams& p = job.map.physics;
  for (const auto& [flag, side] : {std::pair{"--width", p.width}, std::pair{"--height", p.height}})
    if (side % 2 != 0)
      throw ParameterError(flag, fmt::format("{}", side), "an even number (H.264's 4:2:0 colour)");
  check_resolvable(job);
  MapJob map = job.map;
  map.data = job.data_dir;  // a frame's data file counts in its memory
  for (std::int64_t k = 0; k < job.frames; ++k) {
    map.physics = zoom_frame_params(job, k);
    try {
      if (k == 0)
        validate_map_computation(map);
      else
        validate(map.physics);
    } catch (const ParameterError& e) {
      if (e.parameter().rfind("--", 0) == 0) throw;  // a flag's own rule, the same for all
      throw e.renamed(fmt::format("frame {} (x-range {}:{}, y-range {}:{}) {}", k,
                                  map.physics.x_range[0], map.physics.x_range[1],
                                  map.physics.y_range[0], map.physics.y_range[1], e.parameter()));
    }
  }
  check_output("--out", job.out, job.overwrite, {{"--config", job.map.config}});
  check_folder("--frames-dir", zoom_frames_dir(job));
  if (!job.data_dir.empty()) check_folder("--data-dir", job.data_dir);
}

DivergenceMap compute_zoom_frame(const ZoomJob& job, std::int64_t k, const MapObserver& observer) {
  MapJob map = job.map;
  map.physics = zoom_frame_params(job, k);
  return dist::map_over_ranks(map.physics, map_run_options(map, observer));
}

RgbImage zoom_frame_picture(const ZoomJob& job, const DivergenceMap& map) {
  const std::int64_t steps = zoom_most_steps(job);
  return render_divergence_image(map.counts, map.width, map.height, steps,
                                 Colormap::by_name(job.map.colormap), job.map.origin,
                                 full_divergence_scale(steps));
}

}  // namespace orrery
