// SPDX-License-Identifier: MIT
#include "orrery/render/divergence_image.hpp"

#include <algorithm>

namespace orrery {

RgbImage render_divergence_image(std::span<const std::int32_t> counts, int width, int height,
                                 std::int64_t steps, const Colormap& colormap,
                                 ImageOrigin origin) {
  RgbImage img{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  if (counts.empty()) return img;
  const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
  const double vmin = static_cast<double>(steps - *hi);  // the fewest steps remaining
  const double range = static_cast<double>(*hi - *lo);
  for (int k = 0; k < height; ++k) {
    const int row = origin == ImageOrigin::upper ? k : height - 1 - k;
    for (int j = 0; j < width; ++j) {
      const double v = static_cast<double>(steps - counts[static_cast<std::size_t>(k) * width + j]);
      const Rgb8 c = colormap.at(range > 0 ? (v - vmin) / range : 0.0);
      std::uint8_t* p = &img.pixels[(static_cast<std::size_t>(row) * width + j) * 3];
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
    }
  }
  return img;
}

}  // namespace orrery
