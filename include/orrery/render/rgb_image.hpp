// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/render/colormap.hpp"

namespace orrery {

// 8-bit RGB, row 0 at the top of the picture.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width·height·3

  Rgb8 at(int column, int row) const {
    const std::size_t i = (static_cast<std::size_t>(row) * width + column) * 3;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
  }
};

}  // namespace orrery
