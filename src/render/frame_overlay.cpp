// SPDX-License-Identifier: MIT
#include "orrery/render/frame_overlay.hpp"

#include <cmath>

#include <fmt/format.h>

#include "orrery/render/axis_ticks.hpp"

#if ORRERY_HAVE_CAIRO
#include <cairo.h>
#endif

namespace orrery {

namespace {

bool is_si(const std::string& units) { return units.rfind("SI", 0) == 0; }

// The largest unit of `units` (size ascending) not larger than `typical`, else the smallest.
ShownUnit pick(const std::vector<ShownUnit>& units, double typical) {
  ShownUnit best = units.front();
  for (const auto& u : units)
    if (u.size <= typical) best = u;
  return best;
}

constexpr double kFontFraction = 0.028;  // of the picture's height
constexpr double kBarFraction = 0.2;     // of its width

}  // namespace

ShownUnit shown_length_unit(const std::string& run_units, double typical) {
  if (!is_si(run_units)) return {1.0, ""};
  return pick({{1.0, "m"}, {1e3, "km"}, {1.495978707e11, "AU"}, {3.0856775814913673e16, "pc"},
               {3.0856775814913673e19, "kpc"}},
              typical);
}

ShownUnit shown_time_unit(const std::string& run_units, double typical) {
  if (!is_si(run_units)) return {1.0, ""};
  constexpr double year = 365.25 * 86400.0;  // Julian
  return pick({{1.0, "s"}, {86400.0, "d"}, {year, "yr"}, {1e6 * year, "Myr"}, {1e9 * year, "Gyr"}},
              typical);
}

void draw_frame_overlay(FrameImage& frame, const std::string& text, double pixels_per_length,
                        const ShownUnit& length_unit) {
  const double font = std::max(10.0, kFontFraction * frame.height);
  // The bar: a round number of shown units near a fifth of the width.
  const double pixels_per_unit = pixels_per_length * length_unit.size;
  const double step = nice_step(kBarFraction * frame.width / pixels_per_unit, 1);
  const double bar = step * pixels_per_unit;
  const std::string bar_label =
      fmt::format("{:g}{}{}", step, length_unit.name.empty() ? "" : " ", length_unit.name);
  draw_with_cairo(frame, [&](_cairo* cr) {
#if ORRERY_HAVE_CAIRO
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    cairo_set_source_rgb(cr, 0.92, 0.92, 0.92);
    cairo_move_to(cr, font, 1.6 * font);
    cairo_show_text(cr, text.c_str());
    const double y = frame.height - 1.2 * font;
    cairo_set_line_width(cr, std::max(2.0, font / 6));
    cairo_move_to(cr, font, y);
    cairo_line_to(cr, font + bar, y);
    for (double end : {font, font + bar}) {
      cairo_move_to(cr, end, y - font / 3);
      cairo_line_to(cr, end, y + font / 3);
    }
    cairo_stroke(cr);
    cairo_move_to(cr, font, y - 0.6 * font);
    cairo_show_text(cr, bar_label.c_str());
  #else
    (void)cr;  // draw_with_cairo has refused already
#endif
  });
}

}  // namespace orrery
