// SPDX-License-Identifier: MIT
// The heads-up line of `orrery view`: the time (in the unit `orrery render` shows it in), N,
// the steps per second (live) or the snapshot (a run), the relative energy drift, the speed and
// whether the view is paused; drawn with the scale bar by render/frame_overlay.hpp into a
// picture the size of the window, black elsewhere, where this build has Cairo.
#pragma once

#include <string>

#include "orrery/jobs/view_job.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/render/particle_splat.hpp"

namespace orrery::view {

class HudLine {
 public:
  explicit HudLine(const ViewSession& session);
  void update(const ViewFrame& frame);  // the newest frame's numbers
  const std::string& text();            // with the session's speed and pause as they are now
  bool draws_text() const;
  // The picture drawn again where the text, the size or the camera's width changed since;
  // null where it is as it was.
  const FrameImage* redrawn(int width, int height, const Camera& camera);

 private:
  const ViewSession& session_;
  ViewFrame numbers_;  // the bodies left out
  std::string text_, drawn_text_;
  double drawn_width_ = 0;
  FrameImage picture_;
};

}  // namespace orrery::view
