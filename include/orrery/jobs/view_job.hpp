// SPDX-License-Identifier: MIT
// `orrery view`: what a window shows, without the window. A live simulation (a scene or a
// particle file with the engine, integrator, precision and backend of `orrery sim`; nothing is
// written) or the snapshots of a run to scrub through; either advances on a thread of its own,
// by `speed` steps (live) or snapshots (a run) for each frame the window takes, so the window
// stays responsive however long a step takes. Each frame holds the bodies' positions (float,
// relative to the look's centre, for OpenGL), their colours as `orrery render` gives them
// (jobs/frame_look.hpp), and what the heads-up line says.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/jobs/frame_look.hpp"

namespace orrery {

struct ViewJob {
  SimJob sim;       // a live run: its scene or input, engine, integrator, dt, t-end, ...
  std::string run;  // or a run folder of `orrery sim` to scrub through ("" for a live run)
  ColourBy colour_by = ColourBy::speed;
  double extent = 0;       // length across the window's shorter side; 0: render's default
  double azimuth = -90, elevation = 90;  // the camera's first direction, degrees (down the z axis)
  std::int64_t speed = 1;  // steps (live) or snapshots (a run) per frame
  bool paused = false;
};

// The view's own parameters; a live run's come from sim_job_fields() without those about
// files (view_sim_fields()).
const std::vector<ParamField<ViewJob>>& view_job_fields();
const std::vector<ParamField<SimJob>>& view_sim_fields();

struct ViewFrame {
  std::vector<float> position;     // x, y, z per body, relative to the look's centre
  std::vector<BodyColour> colour;  // one per body, or one for all
  double time = 0;
  std::int64_t index = 0;          // live: steps taken; a run: the snapshot's index
  std::size_t bodies = 0;
  double energy_drift = 0;         // relative, since the first state
  double energy_drift_time = 0;    // the time of the state it was measured at (live: at most
                                   // a second old, so it may lag the frame's time)
  double steps_per_second = 0;     // live: over the last frame's steps; 0 for a run
  bool at_end = false;             // t-end (live) or the last snapshot reached
};

class ViewSession {
 public:
  // Every check and the first frame, before any window opens: ParameterError/InputError for bad
  // input, as `orrery sim` and `orrery render` give them.
  explicit ViewSession(const ViewJob& job);
  ~ViewSession();
  ViewSession(const ViewSession&) = delete;
  ViewSession& operator=(const ViewSession&) = delete;

  const FrameLook& look() const;
  // The camera the window opens with, for a picture width×height pixels: at the look's centre
  // (positions are relative to it), the look's extent across the shorter side.
  Camera first_camera(int width, int height) const;
  const std::string& units() const;  // the run's, for the time and the scale bar
  double t_end() const;
  bool live() const;

  // The newest frame not taken yet (true), or false: the window draws the last one again.
  // Taking a frame lets the thread make the next while playing.
  bool take(ViewFrame& out);
  void set_paused(bool paused);
  bool paused() const;
  // While paused: one more frame `direction` (+1, or −1 through a run's snapshots).
  void step(int direction);
  void set_speed(std::int64_t speed);  // clamped to [1, 2^20]
  std::int64_t speed() const;
  // Why the session stopped (a non-finite state, a file that cannot be read); "" while it runs.
  std::string failure() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace orrery
