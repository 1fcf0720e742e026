// SPDX-License-Identifier: MIT
// The measured convergence order: the least-squares slope p of log(error) = p log(h) + const.
#pragma once

#include <cmath>
#include <vector>

namespace orrery::test {

inline double fitted_slope(const std::vector<double>& h, const std::vector<double>& error) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double lx = std::log(h[i]), ly = std::log(error[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace orrery::test
