// SPDX-License-Identifier: MIT
#include "orrery/render/line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

#include "orrery/core/error.hpp"
#include "orrery/render/axis_ticks.hpp"

#if ORRERY_HAVE_CAIRO
#include <cairo.h>
#endif

namespace orrery {

namespace {

// Ticks wanted per axis, and the page's proportions (fractions of its height), chosen so that
// labels of about ten characters fit at 800×500 and larger.
constexpr int kTicks = 6;
constexpr double kFont = 0.032, kTitleFont = 0.04;

bool drawable(const PlotAxes& a, double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && (!a.log_y || y > 0);
}

#if ORRERY_HAVE_CAIRO
void set_colour(cairo_t* cr, Rgb8 c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

void text_at(cairo_t* cr, const std::string& s, double x, double y, double align_x,
             double align_y) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  cairo_move_to(cr, x - align_x * e.width - e.x_bearing, y - align_y * e.height - e.y_bearing);
  cairo_show_text(cr, s.c_str());
}

#endif

}  // namespace

std::array<double, 2> line_plot_frame_rows(int height) {
  const double font = kFont * height;
  return {2.0 * kTitleFont * height + 0.6 * font, height - 3.2 * font};
}

FrameImage draw_line_plot(const PlotAxes& axes, const std::vector<PlotSeries>& series, int width,
                          int height) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& s : series)
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if (drawable(axes, s.x[i], s.y[i])) {
        x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
        y0 = std::min(y0, s.y[i]), y1 = std::max(y1, s.y[i]);
      }
  if (!(x1 >= x0))
    throw InputError("nothing to plot: " + axes.title + " has no finite" +
                     (axes.log_y ? " positive" : "") + " values");
  std::tie(x0, x1) = nice_range(x0, x1, kTicks);
  std::vector<AxisTick> yt;
  if (axes.log_y) {
    y0 = std::pow(10.0, std::floor(std::log10(y0))), y1 = std::pow(10.0, std::ceil(std::log10(y1)));
    if (y1 <= y0) y1 = y0 * 10;
    yt = log_ticks(y0, y1, kTicks);
  } else {
    std::tie(y0, y1) = nice_range(y0, y1, kTicks);
    yt = linear_ticks(y0, y1, kTicks);
  }
  const auto xt = linear_ticks(x0, x1, kTicks);

  FrameImage page(width, height, pack_rgb(255, 255, 255));
  draw_with_cairo(page, [&](_cairo* cr) {
#if ORRERY_HAVE_CAIRO
    const double font = kFont * height;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    double widest = 0;
    for (const auto& t : yt) {
      cairo_text_extents_t e;
      cairo_text_extents(cr, t.label.c_str(), &e);
      widest = std::max(widest, e.width);
    }
    const double left = widest + 2.8 * font, right = width - 1.5 * font;
    const bool legend = std::any_of(series.begin(), series.end(),
                                    [](const PlotSeries& s) { return !s.label.empty(); });
    // The legend's entries in rows that fit between the frame's sides, each row centred.
    std::vector<std::vector<std::size_t>> rows;
    std::vector<double> entry_width(series.size()), row_width;
    if (legend) {
      for (std::size_t i = 0; i < series.size(); ++i) {
        if (series[i].label.empty()) continue;
        cairo_text_extents_t e;
        cairo_text_extents(cr, series[i].label.c_str(), &e);
        entry_width[i] = e.width + 4.5 * font;
        if (rows.empty() || row_width.back() + entry_width[i] > right - left) {
          rows.emplace_back();
          row_width.push_back(0);
        }
        rows.back().push_back(i);
        row_width.back() += entry_width[i];
      }
    }
    const double legend_rows = static_cast<double>(rows.size());
    const double top = line_plot_frame_rows(height)[0] + (legend ? 1.2 * legend_rows * font : 0.0);
    const double bottom = line_plot_frame_rows(height)[1];
    auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * (right - left); };
    auto py = [&](double y) {
      const double f = axes.log_y ? (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0))
                                  : (y - y0) / (y1 - y0);
      return bottom - f * (bottom - top);
    };
    // Grid and ticks.
    cairo_set_line_width(cr, 1.0);
    for (const auto& t : xt) {
      cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
      cairo_move_to(cr, std::round(px(t.value)) + 0.5, top);
      cairo_line_to(cr, std::round(px(t.value)) + 0.5, bottom);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      text_at(cr, t.label, px(t.value), bottom + 0.5 * font, 0.5, 0.0);
    }
    for (const auto& t : yt) {
      cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
      cairo_move_to(cr, left, std::round(py(t.value)) + 0.5);
      cairo_line_to(cr, right, std::round(py(t.value)) + 0.5);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      text_at(cr, t.label, left - 0.5 * font, py(t.value), 1.0, 0.5);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, left + 0.5, top + 0.5, right - left, bottom - top);
    cairo_stroke(cr);
    // Labels and title.
    text_at(cr, axes.x_label, 0.5 * (left + right), height - 0.3 * font, 0.5, 1.0);
    cairo_save(cr);
    cairo_translate(cr, 0.4 * font, 0.5 * (top + bottom));
    cairo_rotate(cr, -std::numbers::pi / 2);
    text_at(cr, axes.y_label, 0, 0, 0.5, 0.0);
    cairo_restore(cr);
    cairo_set_font_size(cr, kTitleFont * height);
    text_at(cr, axes.title, 0.5 * (left + right), 0.6 * kTitleFont * height, 0.5, 0.0);
    cairo_set_font_size(cr, font);
    // Series, clipped to the frame.
    cairo_save(cr);
    cairo_rectangle(cr, left, top, right - left, bottom - top);
    cairo_clip(cr);
    cairo_set_line_width(cr, std::max(1.5, height / 300.0));
    // A dot's side: about 1.5 pixels at 800 high, so that dense sets of dots stay apart.
    const double dot = std::max(1.5, height / 530.0);
    for (const auto& s : series) {
      set_colour(cr, s.colour);
      if (s.dots) {
        for (std::size_t i = 0; i < s.x.size(); ++i)
          if (drawable(axes, s.x[i], s.y[i]))
            cairo_rectangle(cr, px(s.x[i]) - 0.5 * dot, py(s.y[i]) - 0.5 * dot, dot, dot);
        cairo_fill(cr);
        continue;
      }
      bool pen_down = false;
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (!drawable(axes, s.x[i], s.y[i])) {
          pen_down = false;
          continue;
        }
        if (pen_down)
          cairo_line_to(cr, px(s.x[i]), py(s.y[i]));
        else
          cairo_move_to(cr, px(s.x[i]), py(s.y[i]));
        pen_down = true;
      }
      cairo_stroke(cr);
    }
    cairo_restore(cr);
    // Legend: rows between the title and the frame, so it never hides a curve.
    if (legend) {
      cairo_set_line_width(cr, std::max(1.5, height / 300.0));
      for (std::size_t r = 0; r < rows.size(); ++r) {
        double x = 0.5 * (left + right - row_width[r]);
        const double above = legend_rows - 1.0 - static_cast<double>(r);  // rows below this one
        const double y = top - 0.9 * font - above * 1.2 * font;
        for (const std::size_t i : rows[r]) {
          const PlotSeries& s = series[i];
          set_colour(cr, s.colour);
          cairo_move_to(cr, x, y);
          cairo_line_to(cr, x + 1.8 * font, y);
          cairo_stroke(cr);
          cairo_set_source_rgb(cr, 0, 0, 0);
          text_at(cr, s.label, x + 2.3 * font, y, 0.0, 0.5);
          x += entry_width[i];
        }
      }
    }
  #else
    (void)cr;  // draw_with_cairo has refused already
#endif
  });
  return page;
}

}  // namespace orrery
