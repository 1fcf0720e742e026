// SPDX-License-Identifier: MIT
// A line chart a person can read: a title, axes with ticks and labels, a grid, one or more
// series drawn as lines (or as dots: a scatter plot) and named in a legend (series without a
// label are left out of it); the y axis linear or logarithmic (points with
// y <= 0 break a line there). Drawn with Cairo on a white page.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "orrery/render/frame_image.hpp"

namespace orrery {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;
  Rgb8 colour;
  bool dots = false;  // each point a dot, no line between them
};

struct PlotAxes {
  std::string title, x_label, y_label;
  bool log_y = false;
};

// The rows of the frame's top and bottom on a page `height` pixels high whose series have no
// labels (no legend above the frame).
std::array<double, 2> line_plot_frame_rows(int height);

// InputError when no series has a point to draw.
FrameImage draw_line_plot(const PlotAxes& axes, const std::vector<PlotSeries>& series,
                          int width, int height);

}  // namespace orrery
