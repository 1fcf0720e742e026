// SPDX-License-Identifier: MIT
// Where an axis gets its ticks and what they say: on a linear axis the multiples of a "nice"
// step (1, 2 or 5 × 10^k) inside the range, at most about `target` of them (Heckbert, "Nice
// numbers for graph labels", Graphics Gems, 1990); on a logarithmic axis the powers of ten inside
// the range (every second or third power when there are many), and where the range spans less
// than three decades 1, 2 and 5 times each power.
#pragma once

#include <string>
#include <vector>

namespace orrery {

struct AxisTick {
  double value;
  std::string label;
};

// The nice step for a span cut into about `target` parts: 1, 2 or 5 × 10^k.
double nice_step(double span, int target);
// The range [lo, hi] widened outward to multiples of nice_step (a range of one value is widened
// by one unit around it).
std::pair<double, double> nice_range(double lo, double hi, int target);
std::vector<AxisTick> linear_ticks(double lo, double hi, int target);
std::vector<AxisTick> log_ticks(double lo, double hi, int target);  // lo > 0

}  // namespace orrery
