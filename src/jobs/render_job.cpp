// SPDX-License-Identifier: MIT
#include "orrery/jobs/render_job.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <optional>

#include <fmt/format.h>

#include "jobs/run_facts.hpp"
#include "orrery/core/error.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/lagrangian_radii.hpp"
#include "orrery/render/colormap.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/render/frame_overlay.hpp"
#include "orrery/render/particle_splat.hpp"
#include "orrery/render/video_encoder.hpp"
#include "orrery/scenes/two_galaxies.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

using J = RenderJob;

// The picture spans this many 90 % Lagrangian radii of the first snapshot, across its shorter side.
constexpr double kExtentInRadii = 2.5;
// Brightness: the scale turns logarithmic at this fraction of one body's light, so a lone body
// shows; it saturates at the brightest pixel of the first frame (at least this many bodies).
constexpr double kKnee = 0.05;
constexpr double kLeastSaturation = 8.0;
// Speeds are coloured against this quantile of the first snapshot's speeds, on the part of
// inferno that stands out from black.
constexpr double kSpeedQuantile = 0.99;
constexpr double kInfernoFrom = 0.35;
const BodyColour kPlain = {1.0f, 0.93f, 0.82f};
const BodyColour kGroupColours[2] = {{1.0f, 0.62f, 0.25f}, {0.35f, 0.65f, 1.0f}};

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  f.push_back(text_field("out", "the movie, MP4 (H.264) (default: RUN.mp4)", &J::out));
  f.push_back(text_field("frames-dir", "also write each frame as DIR/frame_NNNNNN.png",
                         &J::frames_dir));
  f.push_back(integer_field("width", "frame width, pixels (even)", &J::width, 16, 8192));
  f.push_back(integer_field("height", "frame height, pixels (even)", &J::height, 16, 8192));
  f.push_back(integer_field("fps", "frames per second of the movie", &J::fps, 1, 240));
  f.push_back(choice_field("color-by", "body colour: speed (inferno), group (galaxy of "
                                       "two-galaxies) or plain",
                           &J::colour_by, {"speed", "group", "plain"}));
  f.push_back(choice_field("camera", "fixed on the first snapshot's centre of mass, following "
                                     "the centre of mass, or orbiting it once over the movie",
                           &J::camera, {"fixed", "follow", "orbit"}));
  f.push_back(real_field("extent", "length shown across the picture's shorter side (default: "
                                   "2.5 times the first snapshot's 90 % Lagrangian radius)",
                         &J::extent, RealRule::NonNegative));
  f.push_back(real_field("elevation", "orbiting camera's height above the xy plane, degrees",
                         &J::elevation, RealRule::Finite));
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 0, 4096));
  f.push_back(flag_field("overwrite", "replace --out where it exists", &J::overwrite));
  return f;
}

BodyColour from_rgb8(Rgb8 c) { return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f}; }

double speed(const Particles<double>& p, std::size_t i) {
  return std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
}

// What stays fixed over the movie, from the first snapshot.
struct Look {
  Vec3d centre;
  double extent = 1;      // across the shorter side
  double speed_scale = 1;
  std::int64_t scene_n = 0;
  std::string units;
  double t_end = 0;  // for the unit the time is shown in
};

void colour_bodies(const RenderJob& job, const Look& look, const Particles<double>& p,
                   std::vector<BodyColour>& out) {
  if (job.colour_by == ColourBy::plain) {
    out.assign(1, kPlain);
    return;
  }
  out.resize(p.size());
  const Colormap& inferno = Colormap::by_name("inferno");
  for (std::size_t i = 0; i < p.size(); ++i)
    out[i] = job.colour_by == ColourBy::group
                 ? kGroupColours[two_galaxies_galaxy_of(p.id[i], look.scene_n)]
                 : from_rgb8(inferno.at(kInfernoFrom + (1 - kInfernoFrom) *
                                                           std::min(1.0, speed(p, i) / look.speed_scale)));
}

}  // namespace

const std::vector<ParamField<RenderJob>>& render_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

RenderOutcome run_render_job(const RenderJob& job) {
  require_text_drawing();
  const RunFacts facts = read_run_facts(job.run);
  for (auto [name, v] : {std::pair{"--width", job.width}, std::pair{"--height", job.height}})
    if (v % 2 != 0)
      throw ParameterError(name, fmt::format("{}", v), "an even number (H.264's 4:2:0 colour)");
  const fs::path out = job.out.empty() ? fs::path(facts.name + ".mp4") : fs::path(job.out);
  check_output_path("--out", out);
  std::error_code ec;
  if (!job.overwrite && fs::exists(out, ec))
    throw ParameterError("--out", out.string(),
                         "a file that does not exist yet (add --overwrite to replace it)");
  Look look;
  look.units = facts.units, look.scene_n = facts.scene_n, look.t_end = facts.t_end;
  const std::string& scene = facts.scene;
  if (job.colour_by == ColourBy::group && scene != "two-galaxies")
    throw ParameterError("--color-by", "group",
                         fmt::format("speed or plain for this run (scene '{}'): groups are "
                                     "known for the two-galaxies scene",
                                     scene.empty() ? "none, a file's particles" : scene));
  const auto snapshots = run_snapshots(job.run);
  if (snapshots.empty()) throw InputError(fmt::format("'{}' holds no snapshot", job.run));

  RenderOutcome outcome;
  const std::string ffmpeg = find_ffmpeg();
  fs::path frames_dir = job.frames_dir;
  if (ffmpeg.empty()) {
    if (frames_dir.empty()) frames_dir = out.parent_path() / (out.stem().string() + "_frames");
    outcome.note = no_ffmpeg_note(frames_dir, out, static_cast<int>(job.fps));
  }
  if (!frames_dir.empty()) {
    fs::create_directories(frames_dir, ec);
    if (!fs::is_directory(frames_dir, ec))
      throw ParameterError("--frames-dir", frames_dir.string(), "a folder that can be made");
    outcome.frames_dir = frames_dir.string();
  }

  const int w = static_cast<int>(job.width), h = static_cast<int>(job.height);
  const int threads = cpu_thread_limit(static_cast<int>(job.threads));
  SplatBuffer buffer(w, h, threads);
  FrameImage frame(w, h);
  std::vector<BodyColour> colours;
  std::optional<VideoEncoder> encoder;
  if (!ffmpeg.empty()) encoder.emplace(ffmpeg, out, w, h, static_cast<int>(job.fps));
  double saturation = 0;
  const double aspect = std::max(1.0, static_cast<double>(w) / h);
  for (std::size_t k = 0; k < snapshots.size(); ++k) {
    const HdfParticles s = read_particle_hdf5(snapshot_path(job.run, snapshots[k]));
    const Particles<double>& p = s.particles;
    if (k == 0) {
      look.centre = centre_of_mass(p).position;
      const double r90 = lagrangian_radii(p, std::vector<double>{0.9})[0];
      look.extent = job.extent > 0 ? job.extent : kExtentInRadii * (r90 > 0 ? r90 : 1.0);
      std::vector<double> v(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) v[i] = speed(p, i);
      const auto q = v.begin() + static_cast<std::ptrdiff_t>(kSpeedQuantile * (v.size() - 1));
      std::nth_element(v.begin(), q, v.end());
      look.speed_scale = *q > 0 ? *q : 1.0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    Camera camera{look.centre, look.extent * aspect};
    if (job.camera == CameraMotion::follow) camera.centre = centre_of_mass(p).position;
    if (job.camera == CameraMotion::orbit) {
      camera.azimuth = -std::numbers::pi / 2 +
                       2 * std::numbers::pi * static_cast<double>(k) / snapshots.size();
      camera.elevation = job.elevation * std::numbers::pi / 180;
    }
    colour_bodies(job, look, p, colours);
    buffer.clear();
    buffer.splat(camera, p.x, p.y, p.z, colours);
    if (k == 0) saturation = std::max(kLeastSaturation, buffer.brightest());
    buffer.tone_map(kKnee, saturation, frame);
    const ShownUnit tu = shown_time_unit(look.units, std::abs(look.t_end));
    const ShownUnit lu = shown_length_unit(look.units, look.extent / 5);
    draw_frame_overlay(frame,
                       fmt::format("t = {:.4g}{}{}    N = {}", s.time / tu.size,
                                   tu.name.empty() ? "" : " ", tu.name, p.size()),
                       w / camera.width, lu);
    outcome.draw_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!frames_dir.empty())
      write_png(frames_dir / fmt::format("frame_{:06}.png", k), to_rgb_image(frame));
    if (encoder) encoder->add(frame);
    ++outcome.frames;
  }
  if (encoder) {
    encoder->finish();
    outcome.movie = out.string();
  }
  return outcome;
}

}  // namespace orrery
