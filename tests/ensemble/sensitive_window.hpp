// SPDX-License-Identifier: MIT
// A window of the canonical system whose twins (shifted by 0.01, critical distance 0.02)
// separate within a few thousand steps, so a small grid holds many different counts: the map
// tests' sensitive window (an agreement of constant counts would prove nothing).
#pragma once

#include <cstdint>

#include "orrery/ensemble/divergence_map.hpp"

namespace orrery::test {

inline DivergenceMapParams sensitive_window(std::int32_t width, std::int32_t height,
                                            std::int64_t steps) {
  DivergenceMapParams p;
  p.width = width;
  p.height = height;
  p.steps = steps;
  p.shift = {0.01, 0.01, 0.01};
  p.critical_distance = 0.02;
  p.x_range = {-16.0, -4.0};
  p.y_range = {-6.0, 6.0};
  return p;
}

}  // namespace orrery::test
