// SPDX-License-Identifier: MIT
// What a frame says beside its particles: a line of text at the top left (the time) and a scale
// bar at the bottom left whose length is a round number (1, 2 or 5 × 10^k) of the length unit
// shown, chosen so the bar spans about a fifth of the picture.
#pragma once

#include <string>

#include "orrery/render/frame_image.hpp"

namespace orrery {

// A length or time in the unit a reader expects: N-body units as plain numbers, SI metres in
// AU, pc or kpc and SI seconds in yr, Myr or Gyr, whichever reads best.
struct ShownUnit {
  double size;       // of the unit, in the run's own units
  std::string name;  // "" for plain numbers
};
ShownUnit shown_length_unit(const std::string& run_units, double typical);
ShownUnit shown_time_unit(const std::string& run_units, double typical);

// `pixels_per_length` converts the run's length unit to pixels.
void draw_frame_overlay(FrameImage& frame, const std::string& text, double pixels_per_length,
                        const ShownUnit& length_unit);

}  // namespace orrery
