// SPDX-License-Identifier: MIT
#include "hud_line.hpp"

#include <cmath>

#include <fmt/format.h>

#include "orrery/render/frame_overlay.hpp"

namespace orrery::view {

HudLine::HudLine(const ViewSession& session) : session_(session) {}

void HudLine::update(const ViewFrame& frame) {
  numbers_.time = frame.time;
  numbers_.index = frame.index;
  numbers_.bodies = frame.bodies;
  numbers_.energy_drift = frame.energy_drift;
  numbers_.energy_drift_time = frame.energy_drift_time;
  numbers_.steps_per_second = frame.steps_per_second;
  numbers_.at_end = frame.at_end;
}

const std::string& HudLine::text() {
  const ShownUnit tu = shown_time_unit(session_.units(), std::abs(session_.t_end()));
  const std::string rate = session_.live()
                               ? fmt::format("{:.3g} steps/s", numbers_.steps_per_second)
                               : fmt::format("snapshot {}", numbers_.index);
  // The drift of the state it was measured at, which says its time where it lags the frame's.
  std::string drift = std::isnan(numbers_.energy_drift)
                          ? "dE/E = ?"
                          : fmt::format("dE/E = {:.2e}", numbers_.energy_drift);
  if (!std::isnan(numbers_.energy_drift) && numbers_.energy_drift_time != numbers_.time)
    drift += fmt::format(" at t = {:.4g}", numbers_.energy_drift_time / tu.size);
  text_ = fmt::format("t = {:.4g}{}{}    N = {}    {}    {}    x{}{}", numbers_.time / tu.size,
                      tu.name.empty() ? "" : " ", tu.name, numbers_.bodies, rate, drift,
                      session_.speed(),
                      numbers_.at_end ? "    end" : session_.paused() ? "    paused" : "");
  return text_;
}

bool HudLine::draws_text() const { return can_draw_text(); }

const FrameImage* HudLine::redrawn(int width, int height, const Camera& camera) {
  if (picture_.width == width && picture_.height == height && drawn_text_ == text_ &&
      drawn_width_ == camera.width)
    return nullptr;
  picture_ = FrameImage(width, height);
  const ShownUnit lu = shown_length_unit(session_.units(), session_.look().extent / 5);
  draw_frame_overlay(picture_, text_, width / camera.width, lu);
  drawn_text_ = text_, drawn_width_ = camera.width;
  return &picture_;
}

}  // namespace orrery::view
