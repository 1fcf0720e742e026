// SPDX-License-Identifier: MIT
#include "orrery/render/frame_image.hpp"

#include <memory>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

#if ORRERY_HAVE_CAIRO
#include <cairo.h>
#endif

namespace orrery {

bool can_draw_text() { return ORRERY_HAVE_CAIRO != 0; }

void require_text_drawing() {
  if (!can_draw_text())
    throw RunError(
        "this orrery was built without Cairo, which draws plots and the text on frames: install "
        "libcairo2-dev (scripts/setup does) and build again");
}

RgbImage to_rgb_image(const FrameImage& frame) {
  RgbImage out{frame.width, frame.height, std::vector<std::uint8_t>(frame.pixels.size() * 3)};
  for (std::size_t i = 0; i < frame.pixels.size(); ++i) {
    const std::uint32_t p = frame.pixels[i];
    out.pixels[3 * i] = static_cast<std::uint8_t>(p >> 16);
    out.pixels[3 * i + 1] = static_cast<std::uint8_t>(p >> 8);
    out.pixels[3 * i + 2] = static_cast<std::uint8_t>(p);
  }
  return out;
}

FrameImage to_frame_image(const RgbImage& image) {
  FrameImage out(image.width, image.height);
  for (std::size_t i = 0; i < out.pixels.size(); ++i)
    out.pixels[i] = pack_rgb(image.pixels[3 * i], image.pixels[3 * i + 1], image.pixels[3 * i + 2]);
  return out;
}

#if !ORRERY_HAVE_CAIRO
void draw_with_cairo(FrameImage&, const std::function<void(_cairo*)>&) {
  require_text_drawing();
}
#else
void draw_with_cairo(FrameImage& frame, const std::function<void(cairo_t*)>& draw) {
  const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, frame.width);
  if (stride != frame.width * 4)
    throw RunError(fmt::format("cairo: an unexpected row stride {} for width {}", stride,
                               frame.width));
  std::unique_ptr<cairo_surface_t, void (*)(cairo_surface_t*)> surface(
      cairo_image_surface_create_for_data(reinterpret_cast<unsigned char*>(frame.pixels.data()),
                                          CAIRO_FORMAT_RGB24, frame.width, frame.height, stride),
      cairo_surface_destroy);
  std::unique_ptr<cairo_t, void (*)(cairo_t*)> cr(cairo_create(surface.get()), cairo_destroy);
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
    throw RunError(fmt::format("cairo: {}", cairo_status_to_string(cairo_status(cr.get()))));
  draw(cr.get());
  cairo_surface_flush(surface.get());
}

#endif

}  // namespace orrery
