// SPDX-License-Identifier: MIT
#include "orrery/render/chaos_image.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "orrery/render/axis_ticks.hpp"
#include "orrery/render/colormap.hpp"

#if ORRERY_HAVE_CAIRO
#include <cairo.h>
#endif

namespace orrery {

namespace {

constexpr int kPlotSide = 640;  // the field's side in pixels, at least (whole multiples)
constexpr int kMargin = 60, kBarWidth = 24, kBarGap = 20, kBarLabels = 90, kTitle = 36;
constexpr std::uint32_t kMissing = pack_rgb(200, 200, 200);
constexpr std::uint32_t kFailed = pack_rgb(0, 0, 0);

// Where a value falls on the bar, 0 at `low`, 1 at `high` (clamped).
double bar_position(const ChaosScale& s, double v) {
  double t = 0;
  if (s.kind == ChaosScaleKind::logarithmic)
    t = v > 0 ? (std::log10(v) - std::log10(s.low)) / (std::log10(s.high) - std::log10(s.low)) : 0;
  else
    t = (v - s.low) / (s.high - s.low);
  return std::clamp(t, 0.0, 1.0);
}

// Exit c + f: the exit's hue from light (f = 0, left early) to dark (f → 1, left late); no exit
// (below 0) white.
std::uint32_t exit_colour(double v) {
  if (v < 0) return pack_rgb(255, 255, 255);
  constexpr Rgb8 kHues[] = {{215, 48, 39}, {69, 117, 180}, {26, 152, 80}, {152, 78, 163}};
  const auto c = std::min<std::size_t>(static_cast<std::size_t>(v), std::size(kHues) - 1);
  const double f = std::clamp(v - static_cast<double>(c), 0.0, 1.0);
  const auto shade = [&](std::uint8_t x) {  // from halfway to white down to a third of the hue
    const double light = x + (255 - x) * 0.5, dark = x / 3.0;
    return static_cast<std::uint8_t>(std::lround(light + (dark - light) * f));
  };
  return pack_rgb(shade(kHues[c].r), shade(kHues[c].g), shade(kHues[c].b));
}

// The colour at bar position t: MEGNO's diverging blue–white–red with white where the value is
// 2; exits by exit_colour; the others inferno.
std::uint32_t colour_at(const ChaosScale& s, double t) {
  if (s.kind == ChaosScaleKind::exits) return exit_colour(s.low + t * (s.high - s.low));
  if (s.kind == ChaosScaleKind::diverging_about_two) {
    const double centre = (2.0 - s.low) / (s.high - s.low);
    const Rgb8 blue{33, 102, 172}, white{247, 247, 247}, red{178, 24, 43};
    const bool below = t < centre;
    const double f = below ? t / centre : (t - centre) / (1.0 - centre);
    const Rgb8 a = below ? blue : white, b = below ? white : red;
    const auto mix = [&](std::uint8_t x, std::uint8_t y) {
      return static_cast<std::uint8_t>(std::lround(x + (y - x) * f));
    };
    return pack_rgb(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
  }
  const Rgb8 c = Colormap::by_name("inferno").at(t);
  return pack_rgb(c.r, c.g, c.b);
}

std::vector<AxisTick> bar_ticks(const ChaosScale& s) {
  if (s.kind == ChaosScaleKind::exits) {  // one at the middle of each exit's stretch
    std::vector<AxisTick> t;
    for (int c = 0; c < static_cast<int>(s.high); ++c)
      t.push_back({c + 0.5, fmt::format("{}", c)});
    return t;
  }
  if (s.kind == ChaosScaleKind::logarithmic) return log_ticks(s.low, s.high, 6);
  return linear_ticks(s.low, s.high, 6);
}

void fill_bar(FrameImage& page, const ChaosScale& scale, int left, int top, int height) {
  for (int y = 0; y < height; ++y) {
    const std::uint32_t c = colour_at(scale, 1.0 - (y + 0.5) / height);
    std::fill_n(page.pixels.begin() + static_cast<std::ptrdiff_t>((top + y) * page.width + left),
                kBarWidth, c);
  }
}

#if ORRERY_HAVE_CAIRO
void text_at(cairo_t* cr, const std::string& s, double x, double y, double ax, double ay) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  cairo_move_to(cr, x - ax * e.width - e.x_bearing, y - ay * e.height - e.y_bearing);
  cairo_show_text(cr, s.c_str());
}

// The bar's frame, its ticks and their values to its right, and the scale's label under it
// (the current font).
void label_bar(cairo_t* cr, const ChaosScale& scale, int left, int top, int height) {
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, left - 0.5, top - 0.5, kBarWidth + 1, height + 1);
  cairo_stroke(cr);
  for (const AxisTick& t : bar_ticks(scale)) {
    const double y = top + (1.0 - bar_position(scale, t.value)) * height;
    cairo_move_to(cr, left + kBarWidth, std::round(y) + 0.5);
    cairo_line_to(cr, left + kBarWidth + 5, std::round(y) + 0.5);
    cairo_stroke(cr);
    text_at(cr, t.label, left + kBarWidth + 8, y, 0.0, 0.5);
  }
  text_at(cr, scale.label, left + kBarWidth / 2.0, top + height + 18, 0.5, 0.5);
}
#endif

}  // namespace

Rgb8 chaos_colour(const ChaosScale& scale, double v) {
  const std::uint32_t c = std::isnan(v)                          ? kFailed
                          : scale.kind == ChaosScaleKind::exits ? exit_colour(v)
                                                                : colour_at(scale, bar_position(scale, v));
  return {static_cast<std::uint8_t>(c >> 16), static_cast<std::uint8_t>(c >> 8),
          static_cast<std::uint8_t>(c)};
}

FrameImage with_chaos_bar(const FrameImage& plot, const ChaosScale& scale, int top, int bottom) {
  const int width = plot.width + kBarWidth + kBarLabels, height = bottom - top;
  FrameImage page(width, plot.height, pack_rgb(255, 255, 255));
  for (int row = 0; row < plot.height; ++row)
    std::copy_n(plot.pixels.begin() + static_cast<std::ptrdiff_t>(row) * plot.width, plot.width,
                page.pixels.begin() + static_cast<std::ptrdiff_t>(row) * width);
  fill_bar(page, scale, plot.width, top, height);
  draw_with_cairo(page, [&](_cairo* cr) {
#if ORRERY_HAVE_CAIRO
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 13);
    cairo_set_source_rgb(cr, 0, 0, 0);
    label_bar(cr, scale, plot.width, top, height);
#else
    (void)cr;
#endif
  });
  return page;
}

FrameImage draw_chaos_image(const ChaosField& field, const ChaosScale& scale,
                            const std::string& title, const std::string& x_label,
                            const std::string& y_label, double x0, double x1, double y0,
                            double y1) {
  const int zoom = std::max(1, kPlotSide / std::max(field.width, field.height));
  const int pw = field.width * zoom, ph = field.height * zoom;
  const int width = kMargin + pw + kBarGap + kBarWidth + kBarLabels;
  const int height = kTitle + ph + kMargin;
  FrameImage page(width, height, pack_rgb(255, 255, 255));
  for (int row = 0; row < field.height; ++row)
    for (int col = 0; col < field.width; ++col) {
      const std::size_t i = static_cast<std::size_t>(row) * field.width + col;
      const double v = field.values[i];
      const std::uint32_t c = !field.present[i]                  ? kMissing
                              : std::isnan(v)                    ? kFailed
                              : scale.kind == ChaosScaleKind::exits ? exit_colour(v)
                                                                 : colour_at(scale, bar_position(scale, v));
      const int top = kTitle + (field.height - 1 - row) * zoom;  // row 0 at the bottom
      for (int dy = 0; dy < zoom; ++dy)
        std::fill_n(page.pixels.begin() + static_cast<std::ptrdiff_t>(
                                              (top + dy) * width + kMargin + col * zoom),
                    zoom, c);
    }
  const int bar_left = kMargin + pw + kBarGap;
  fill_bar(page, scale, bar_left, kTitle, ph);
  draw_with_cairo(page, [&](_cairo* cr) {
#if ORRERY_HAVE_CAIRO
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 15);
    text_at(cr, title, width / 2.0, kTitle / 2.0, 0.5, 0.5);
    cairo_set_font_size(cr, 13);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, kMargin - 0.5, kTitle - 0.5, pw + 1, ph + 1);
    cairo_stroke(cr);
    label_bar(cr, scale, bar_left, kTitle, ph);
    for (const AxisTick& t : linear_ticks(x0, x1, 5)) {
      const double x = kMargin + (t.value - x0) / (x1 - x0) * pw;
      cairo_move_to(cr, std::round(x) + 0.5, kTitle + ph);
      cairo_line_to(cr, std::round(x) + 0.5, kTitle + ph + 5);
      cairo_stroke(cr);
      text_at(cr, t.label, x, kTitle + ph + 16, 0.5, 0.5);
    }
    for (const AxisTick& t : linear_ticks(y0, y1, 5)) {
      const double y = kTitle + (1.0 - (t.value - y0) / (y1 - y0)) * ph;
      cairo_move_to(cr, kMargin - 5, std::round(y) + 0.5);
      cairo_line_to(cr, kMargin, std::round(y) + 0.5);
      cairo_stroke(cr);
      text_at(cr, t.label, kMargin - 8, y, 1.0, 0.5);
    }
    text_at(cr, x_label, kMargin + pw / 2.0, kTitle + ph + 40, 0.5, 0.5);
    text_at(cr, y_label, 12, kTitle + ph / 2.0, 0.5, 0.5);
#else
    (void)cr;
#endif
  });
  return page;
}

}  // namespace orrery
