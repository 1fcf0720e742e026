// SPDX-License-Identifier: MIT
// The window of `orrery view` (GLFW, OpenGL 3.3 core): it draws the session's newest frame
// each time round, turns the camera with the mouse, zooms with the wheel, and passes the keys
// for pause, step and speed to the session; a heads-up line (time, N, steps/s, energy drift)
// is drawn over the bodies where this build has Cairo, and is the window's title always.
#pragma once

#include <cstdint>
#include <string>

#include "orrery/jobs/view_job.hpp"

namespace orrery::view {

struct WindowOptions {
  int width = 1280, height = 720;
  std::string screenshot;              // a PNG of the last frame drawn ("" for none)
  bool overwrite = false;              // replace an existing screenshot file
  std::int64_t exit_after_frames = 0;  // 0: until the window is closed
};

struct WindowOutcome {
  std::int64_t frames = 0;
  double seconds = 0;  // from the first frame drawn to the last
};

// RunError when no window opens (no display, no OpenGL 3.3) or the session fails.
WindowOutcome run_view_window(ViewSession& session, const WindowOptions& options);

}  // namespace orrery::view
