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
#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "orrery/io/output_path.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/jobs/frame_look.hpp"
#include "orrery/render/frame_overlay.hpp"
#include "orrery/render/particle_splat.hpp"
#include "orrery/render/video_encoder.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

using J = RenderJob;

std::vector<ParamField<J>> make_fields() {
  std::vector<ParamField<J>> f;
  f.push_back(path_field("out", "the movie, MP4 (H.264) (default: RUN.mp4)", &J::out));
  f.push_back(path_field("frames-dir", "also write each frame as DIR/frame_NNNNNN.png",
                         &J::frames_dir));
  f.push_back(integer_field("width", "frame width, pixels (even)", &J::width, 16, 8192));
  f.push_back(integer_field("height", "frame height, pixels (even)", &J::height, 16, 8192));
  f.push_back(integer_field("fps", "frames per second of the movie", &J::fps, 1, 240));
  add_look_fields(f, &J::colour_by, &J::extent);
  f.push_back(choice_field("camera", "fixed on the first snapshot's centre of mass, following "
                                     "the centre of mass, or orbiting it once over the movie",
                           &J::camera, {"fixed", "follow", "orbit"}));
  f.push_back(real_field("elevation", "orbiting camera's height above the xy plane, degrees",
                         &J::elevation, RealRule::Finite));
  f.push_back(integer_field("threads", "CPU threads (default: all cores)", &J::threads, 0, 4096));
  f.push_back(flag_field("overwrite", "replace --out where it exists", &J::overwrite));
  f.push_back(flag_field("quiet", "no summary", &J::quiet));
  return f;
}

}  // namespace

const std::vector<ParamField<RenderJob>>& render_job_fields() {
  static const auto fields = make_fields();
  return fields;
}

namespace {

// Snapshot `index`, frame k of the movie. A snapshot found damaged after the first frame is a
// run that failed on its way (exit 1), not input refused before work (exit 2).
HdfParticles read_snapshot(const std::string& run, std::int64_t index, std::size_t k) {
  try {
    return read_particle_hdf5(snapshot_path(run, index));
  } catch (const InputError& e) {
    if (k == 0) throw;
    throw RunError(fmt::format("frame {}: {} ({} frames drawn before it)", k, e.what(), k));
  }
}

}  // namespace

RenderOutcome run_render_job(const RenderJob& job) {
  const RunFacts facts = read_run_facts(job.run);
  for (auto [name, v] : {std::pair{"--width", job.width}, std::pair{"--height", job.height}})
    if (v % 2 != 0)
      throw ParameterError(name, fmt::format("{}", v), "an even number (H.264's 4:2:0 colour)");
  const fs::path out = job.out.empty() ? fs::path(facts.name + ".mp4") : fs::path(job.out);
  check_output("--out", out, job.overwrite, {{"RUN", job.run}});
  FrameLook look;
  check_colour_by(job.colour_by, facts.scene);
  const auto snapshots = run_snapshots(job.run);
  if (snapshots.empty()) throw InputError(fmt::format("'{}' holds no snapshot", job.run));

  RenderOutcome outcome;
  const std::string ffmpeg = find_ffmpeg();
  fs::path frames_dir = job.frames_dir;
  if (ffmpeg.empty()) {
    if (frames_dir.empty()) frames_dir = out.parent_path() / (out.stem().string() + "_frames");
    outcome.notes.push_back(no_ffmpeg_note(frames_dir, out, static_cast<int>(job.fps)));
  }
  // A machine without Cairo (a GPU node, often) still gets its pictures, without the words.
  if (!can_draw_text())
    outcome.notes.push_back(
        "this orrery was built without Cairo: the frames have no time and no scale bar (install "
        "libcairo2-dev, as scripts/setup does, and build again for them)");
  if (!frames_dir.empty()) {
    std::error_code ec;
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
  if (!ffmpeg.empty())
    encoder.emplace(ffmpeg, out, w, h, static_cast<int>(job.fps),
                    job.overwrite ? IfExists::replace : IfExists::refuse);
  double saturation = 0;
  for (std::size_t k = 0; k < snapshots.size(); ++k) {
    if (job.stop && job.stop()) {
      outcome.stopped = true;
      return outcome;  // the encoder, destroyed, stops ffmpeg and removes its files
    }
    const HdfParticles s = read_snapshot(job.run, snapshots[k], k);
    const Particles<double>& p = s.particles;
    if (k == 0) look = frame_look_of(p, job.extent, facts.scene_n);
    const auto t0 = std::chrono::steady_clock::now();
    Camera camera{look.centre, picture_width(look, w, h)};
    if (job.camera == CameraMotion::follow) camera.centre = centre_of_mass(p).position;
    if (job.camera == CameraMotion::orbit) {
      camera.azimuth = -std::numbers::pi / 2 +
                       2 * std::numbers::pi * static_cast<double>(k) / snapshots.size();
      camera.elevation = job.elevation * std::numbers::pi / 180;
    }
    colour_bodies(job.colour_by, look, p, colours);
    buffer.clear();
    buffer.splat(camera, p.x, p.y, p.z, colours);
    if (k == 0) saturation = std::max(kLeastSaturation, buffer.brightest());
    buffer.tone_map(kKnee, saturation, frame);
    if (can_draw_text()) {
      const ShownUnit tu = shown_time_unit(facts.units, std::abs(facts.t_end));
      const ShownUnit lu = shown_length_unit(facts.units, look.extent / 5);
      draw_frame_overlay(frame,
                         fmt::format("t = {:.4g}{}{}    N = {}", s.time / tu.size,
                                     tu.name.empty() ? "" : " ", tu.name, p.size()),
                         w / camera.width, lu);
    }
    outcome.draw_seconds += seconds_since(t0);
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
