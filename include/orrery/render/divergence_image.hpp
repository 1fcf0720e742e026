// SPDX-License-Identifier: MIT
// The picture of a divergence map: steps − count through a colour map, scaled linearly from the
// map's smallest to its largest value (as matplotlib's imshow does), so pixels that never
// diverge are the map's dark end. Row 0 of the grid (smallest y) is the top row with
// ImageOrigin::upper, the bottom row with ImageOrigin::lower.
#pragma once

#include <cstdint>
#include <span>

#include "orrery/render/colormap.hpp"
#include "orrery/render/rgb_image.hpp"

namespace orrery {

enum class ImageOrigin { upper, lower };

RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin = ImageOrigin::upper);

}  // namespace orrery
