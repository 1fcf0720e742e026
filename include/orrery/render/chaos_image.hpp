// SPDX-License-Identifier: MIT
// The picture of an indicator of chaos over a plane of starts, with a colour bar: a scale suited
// to each indicator — diverging about 2 for MEGNO (blue below, white at 2, red above: the
// regular tori's value in the middle), logarithmic for a Lyapunov exponent and for SALI, linear
// for FLI, a hue per exit for escape basins (value c + f: exit c, shade f from light to dark,
// white below 0: no exit) — and starts the plane holds no trajectory for (beyond the energy) in
// gray.
#pragma once

#include <span>
#include <string>

#include "orrery/render/frame_image.hpp"

namespace orrery {

enum class ChaosScaleKind { diverging_about_two, logarithmic, linear, exits };

struct ChaosScale {
  ChaosScaleKind kind = ChaosScaleKind::linear;
  double low = 0, high = 1;  // the values at the bar's ends (logarithmic: both > 0)
  std::string label;         // under the bar: "<Y>", "lambda", "SALI"
};

// The grid's values, row-major with row 0 the plane's smallest second coordinate (drawn at the
// bottom). Where no trajectory started (present 0) the pixel is gray; a NaN (a trajectory that
// went non-finite) is black; ±∞ and values beyond the bar take its ends' colours.
struct ChaosField {
  int width = 0, height = 0;
  std::span<const double> values;
  std::span<const unsigned char> present;  // 1 where a trajectory started
};

// The colour of value v on the scale's bar (a NaN black, as in the picture).
Rgb8 chaos_colour(const ChaosScale& scale, double v);

// `plot` widened by the scale's colour bar, drawn to its right from row `top` to row `bottom`
// (a picture of another kind coloured by an indicator: the Poincaré section's orbits).
FrameImage with_chaos_bar(const FrameImage& plot, const ChaosScale& scale, int top, int bottom);

// `title` is drawn above the picture; `x_label`, `y_label` name the plane's axes, whose ranges
// are [x0, x1] × [y0, y1].
FrameImage draw_chaos_image(const ChaosField& field, const ChaosScale& scale,
                            const std::string& title, const std::string& x_label,
                            const std::string& y_label, double x0, double x1, double y0,
                            double y1);

}  // namespace orrery
