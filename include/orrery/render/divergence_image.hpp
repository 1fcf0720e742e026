// SPDX-License-Identifier: MIT
// The picture of a divergence map: steps − count through a colour map, scaled linearly between
// two values. A single map is scaled from its smallest to its largest value (as matplotlib's
// imshow does), so pixels that never diverge are the map's dark end; a sequence of maps (a zoom)
// takes one fixed scale for all its pictures, so that a colour means the same count in each.
// Row 0 of the grid (smallest y) is the top row with ImageOrigin::upper, the bottom row with
// ImageOrigin::lower.
#pragma once

#include <cstdint>
#include <span>

#include "orrery/render/colormap.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

enum class ImageOrigin { upper, lower };

// The values of steps − count that go to the colour map's dark and bright ends; values beyond
// them take the end's colour.
struct DivergenceScale {
  double dark = 0, bright = 0;
};

// From the map's own smallest to its largest value.
DivergenceScale divergence_scale_of(std::span<const std::int32_t> counts, std::int64_t steps);
// The whole range a count can take, 0 … steps: fixed by the parameters alone.
DivergenceScale full_divergence_scale(std::int64_t steps);

RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin = ImageOrigin::upper);
RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin, DivergenceScale scale);

}  // namespace orrery
