// SPDX-License-Identifier: MIT
// A zoom into the divergence map as `orrery zoom` describes it: K maps whose windows, centred on
// one point, shrink (or grow) geometrically from a width W0 to W1,
//   W_k = W0 · (W1/W0)^(k/(K−1)),  k = 0 … K−1,
// each window W_k wide and W_k·height/width high (square pixels). Frame k is exactly the map
// `orrery map` computes for that window with the same parameters (zoom_frame_params), written
// as a numbered PNG and optionally its counts as HDF5, then all frames as an MP4 through FFmpeg.
// A deeper window needs a longer integration to tell its pixels apart, so the step count may
// grow with the frame as in the published zoom (--steps-to S1):
//   linear     S_k = S0 + (S1 − S0)·k/(K−1)   (the published schedule; the widths being
//                                            geometric, this is linear in the depth log(W0/W_k))
//   geometric  S_k = S0·(S1/S0)^(k/(K−1))    (the same factor from each frame to the next)
// rounded to the nearest step, S0 and S1 exactly at the ends. Every picture uses one colour
// scale, S − count over 0 … S with S the largest S_k (full_divergence_scale): a count has the same
// colour in every frame and nothing flickers; a pixel that has not diverged within its frame's
// S_k steps shows the colour of count S_k, which is all that frame knows of it (with a fixed step
// count, S_k = S: the dark end). The frames folder is the zoom's record: a zoom run again with the
// same parameters keeps the frames already there and computes the first missing one onwards.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/jobs/map_job_options.hpp"
#include "orrery/jobs/map_job_outcome.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

// How the step count grows from the first frame's --steps to the last frame's --steps-to.
enum class ZoomStepsGrowth { linear, geometric };

struct ZoomJob {
  MapJob map;  // every map parameter but the window and the map's outputs
  std::array<double, 2> center{5.30031, -0.45};  // the published zoom's centre
  // The centre's low parts in double-double: center + center_low is the point --center names
  // to about 32 digits, where the deep precisions (dd, perturbed) centre their windows; fp64
  // and fp32 zooms centre theirs on `center`.
  std::array<double, 2> center_low{0.0, 0.0};
  double from_width = 40;
  double to_width = 0.04;
  std::int64_t frames = 120;
  // The twin's shift shrinks with the window, shift·W_k/W0, as in the published zoom video.
  bool scale_shift = false;
  std::int64_t steps_to = 0;  // the last frame's step count; 0: every frame takes --steps
  ZoomStepsGrowth steps_growth = ZoomStepsGrowth::linear;
  std::string out = "zoom.mp4";
  std::string frames_dir;  // "": OUT's name without extension + "_frames", beside it
  std::string data_dir;    // "": no HDF5 files
  std::int64_t fps = 30;
  bool overwrite = false;  // start again: replace --out and discard frames already made
};

// The frame names have six digits.
inline constexpr std::int64_t kMaxZoomFrames = 999999;

const std::vector<ParamField<ZoomJob>>& zoom_job_fields();

// The window width of frame k: W0 for k = 0, W1 for k = K−1 (exactly), geometric between.
double zoom_width(double from_width, double to_width, std::int64_t frames, std::int64_t k);

struct ZoomWindow {
  std::array<double, 2> x_range, y_range;
  // The ends' rounding errors: x_range + x_range_low is the window in double-double, what
  // --precision dd starts its pixels from (DivergenceMapParams::x_range_low).
  std::array<double, 2> x_range_low, y_range_low;
};
// The window `width` wide around `center` (+ `center_low`, in double-double) with square
// pixels on a pixels_x × pixels_y grid.
ZoomWindow zoom_window(std::array<double, 2> center, double width, std::int32_t pixels_x,
                       std::int32_t pixels_y, std::array<double, 2> center_low = {0.0, 0.0});

// The step count of frame k (ZoomStepsGrowth above): --steps for k = 0, --steps-to (where given)
// for k = K−1, exactly.
std::int64_t zoom_steps(const ZoomJob& job, std::int64_t k);
// The largest step count of any frame: the top of the zoom's one colour scale.
std::int64_t zoom_most_steps(const ZoomJob& job);

// The map parameters of frame k: the job's, with frame k's window and step count (and shift,
// with scale_shift).
DivergenceMapParams zoom_frame_params(const ZoomJob& job, std::int64_t k);

// The folder of the frames, with the default applied.
std::string zoom_frames_dir(const ZoomJob& job);
// Frame k's files: FOLDER/frame_NNNNNN.png and .h5.
std::string zoom_frame_name(std::int64_t k, const char* extension);

// Throws ParameterError (InputError) before any work: any field out of its rule, a window of
// any frame the map refuses, an odd picture size (H.264's 4:2:0 colour), a window whose pixels
// are finer than the precision resolves at its coordinates, outputs that cannot be written, an
// existing --out without --overwrite.
void validate(const ZoomJob& job);

struct ZoomProgress {
  std::int64_t frame = 0;         // the frame being computed
  std::int64_t frames_done = 0;   // frames finished by this run
  std::int64_t frames_to_do = 0;  // frames this run computes (those not made before)
  MapProgress map;                // within the frame
  std::int64_t pixel_steps = 0;   // this run's, finished frames and this one's so far
  double seconds = 0;             // since this run's first frame began
  // This run's work done, weighted by each frame's steps (later frames may take more): 0 … 1.
  double fraction = 0;
};

struct ZoomFrame {
  std::int64_t index = 0;
  DivergenceMapParams params;  // its window
  const DivergenceMap* map = nullptr;
  const RgbImage* picture = nullptr;
};

struct ZoomObserver {
  std::function<void(const ZoomProgress&)> progress;  // a few times a second
  std::function<void(const ZoomFrame&)> frame;        // each frame computed, once it is written
  std::function<bool()> stop;  // asked between frames: true ends the run after the last written
};

// Frame k's map, computed as `orrery map` computes it; nothing is written.
DivergenceMap compute_zoom_frame(const ZoomJob& job, std::int64_t k,
                                 const MapObserver& observer = {});
// Its picture on the zoom's fixed colour scale.
RgbImage zoom_frame_picture(const ZoomJob& job, const DivergenceMap& map);

struct ZoomOutcome {
  std::int64_t frames_kept = 0;      // made by an earlier run
  std::int64_t frames_computed = 0;  // by this run
  bool stopped = false;              // observer.stop asked to end before the last frame
  std::string frames_dir;
  std::string movie;  // "" where no MP4 was made
  std::string note;   // why there is no MP4 and how to make one
  std::int64_t pixel_steps = 0;
  std::int64_t nonfinite_pixels = 0;  // over the frames computed
  double compute_seconds = 0;
  MapRunInfo info;  // of the last frame computed
};

// Validates, then computes every frame not yet in the frames folder and writes it (its data
// first, the picture last, each atomically), then the MP4. The frames folder holds zoom.toml,
// the parameters its frames were made with: a zoom with other parameters is refused there
// (InputError) unless --overwrite. RunError for a failure on the way (a frame once written
// stays).
ZoomOutcome run_zoom_job(const ZoomJob& job, const ZoomObserver& observer = {});

}  // namespace orrery
