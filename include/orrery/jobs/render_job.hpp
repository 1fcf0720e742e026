// SPDX-License-Identifier: MIT
// `orrery render RUN`: a run's snapshots as a movie, headless. Each snapshot is one frame:
// its bodies splatted with additive blending on a logarithmic brightness scale
// (render/particle_splat.hpp), coloured by speed, by galaxy or plain, seen by a camera that is
// fixed, follows the centre of mass or orbits it once over the movie; the time and a scale bar
// are drawn over it. Frames go to FFmpeg (an MP4, H.264) and, with --frames-dir, to numbered
// PNG files; where there is no ffmpeg the frames are written all the same and the command that
// encodes them is given.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/jobs/frame_look.hpp"

namespace orrery {

enum class CameraMotion { fixed, follow, orbit };

struct RenderJob {
  std::string run;
  std::string out;         // the MP4; "" for RUN.mp4
  std::string frames_dir;  // numbered PNG frames; "" for none (where ffmpeg is present)
  std::int64_t width = 1280, height = 720, fps = 30;
  ColourBy colour_by = ColourBy::speed;
  CameraMotion camera = CameraMotion::fixed;
  double extent = 0;        // length across the picture; 0: 2.5 × the 90 % Lagrangian radius
  double elevation = 30;    // degrees, of the orbiting camera
  std::int64_t threads = 0; // 0: all cores
  bool overwrite = false;
  bool quiet = false;       // no summary
  // Asked before each frame: true stops the render there, its unfinished movie removed.
  std::function<bool()> stop;
};

const std::vector<ParamField<RenderJob>>& render_job_fields();

struct RenderOutcome {
  std::int64_t frames = 0;
  std::string movie;          // "" where no MP4 was made
  std::string frames_dir;     // "" where no frames were written
  std::vector<std::string> notes;  // why there is no MP4 or overlay, and how to have them
  double draw_seconds = 0;    // splatting, brightness and overlay, all frames
  bool stopped = false;       // by job.stop, before the last frame: no movie
};

// InputError/ParameterError for bad input before any file is written; RunError when encoding
// fails (no movie is left under --out then).
RenderOutcome run_render_job(const RenderJob& job);

}  // namespace orrery
