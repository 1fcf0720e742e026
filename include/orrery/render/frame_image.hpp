// SPDX-License-Identifier: MIT
// A picture as Cairo draws into it (CAIRO_FORMAT_RGB24: one 32-bit word 0x00RRGGBB per pixel,
// rows of exactly `width` words), so that particles, text and lines land in one buffer that goes
// to a PNG or, as FFmpeg's "bgr0" on a little-endian machine, to a video without a copy.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "orrery/render/rgb_image.hpp"

struct _cairo;  // cairo_t of <cairo.h>, which only the drawing sources include

namespace orrery {

struct FrameImage {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;  // row 0 at the top

  FrameImage() = default;
  FrameImage(int w, int h, std::uint32_t fill = 0)
      : width(w), height(h), pixels(static_cast<std::size_t>(w) * h, fill) {}
  std::uint32_t at(int column, int row) const {
    return pixels[static_cast<std::size_t>(row) * width + column];
  }
};

constexpr std::uint32_t pack_rgb(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return (std::uint32_t{r} << 16) | (std::uint32_t{g} << 8) | b;
}

RgbImage to_rgb_image(const FrameImage& frame);
FrameImage to_frame_image(const RgbImage& image);

// Whether this build draws lines and text (with Cairo; ORRERY_HAVE_CAIRO).
bool can_draw_text();
// Throws RunError naming the package that brings Cairo when this build cannot draw text.
void require_text_drawing();

// Runs `draw` with a Cairo context on `frame`'s pixels; throws RunError when Cairo cannot, or
// when the build has no Cairo (saying which package brings it).
void draw_with_cairo(FrameImage& frame, const std::function<void(_cairo*)>& draw);

}  // namespace orrery
