// SPDX-License-Identifier: MIT
#include "orrery/render/divergence_image.hpp"

#include <algorithm>

namespace orrery {

DivergenceScale divergence_scale_of(std::span<const std::int32_t> counts, std::int64_t steps) {
  if (counts.empty()) return {};
  const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
  return {static_cast<double>(steps - *hi), static_cast<double>(steps - *lo)};
}

DivergenceScale full_divergence_scale(std::int64_t steps) {
  return {0.0, static_cast<double>(steps)};
}

RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin) {
  return render_divergence_image(counts, width, height, steps, colormap, origin,
                                 divergence_scale_of(counts, steps));
}

RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin, DivergenceScale scale) {
  RgbImage img{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  if (counts.empty()) return img;
  const double range = scale.bright - scale.dark;
  for (int k = 0; k < height; ++k) {
    const int row = origin == ImageOrigin::upper ? k : height - 1 - k;
    for (int j = 0; j < width; ++j) {
      const double v = static_cast<double>(steps - counts[static_cast<std::size_t>(k) * width + j]);
      const Rgb8 c = colormap.at(range > 0 ? (v - scale.dark) / range : 0.0);
      std::uint8_t* p = &img.pixels[(static_cast<std::size_t>(row) * width + j) * 3];
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
    }
  }
  return img;
}

}  // namespace orrery
