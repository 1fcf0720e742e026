// SPDX-License-Identifier: MIT
#include "orrery/render/axis_ticks.hpp"

#include <cmath>

#include <fmt/format.h>

namespace orrery {

namespace {

// Spans of fewer decades than this get ticks at 1, 2 and 5 of each.
constexpr int kFewDecades = 3;

// A tick value as a person writes it: no "0.30000000000000004", no "-0".
std::string tick_label(double v, double step) {
  if (std::abs(v) < step * 1e-9) return "0";
  const double magnitude = std::max(std::abs(v), step);
  if (magnitude >= 1e5 || magnitude < 1e-3) return fmt::format("{:.3g}", v);
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  return fmt::format("{:.{}f}", v, decimals);
}

}  // namespace

double nice_step(double span, int target) {
  const double raw = span / std::max(target, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / power;
  const double nice = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0;
  return nice * power;
}

std::pair<double, double> nice_range(double lo, double hi, int target) {
  if (!(hi > lo)) {
    const double unit = lo != 0.0 ? std::pow(10.0, std::floor(std::log10(std::abs(lo)))) : 1.0;
    lo -= unit, hi += unit;
  }
  const double step = nice_step(hi - lo, target);
  return {std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step};
}

std::vector<AxisTick> linear_ticks(double lo, double hi, int target) {
  const double step = nice_step(hi - lo, target);
  std::vector<AxisTick> out;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k)
    out.push_back({k * step, tick_label(k * step, step)});
  return out;
}

std::vector<AxisTick> log_ticks(double lo, double hi, int target) {
  const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  std::vector<AxisTick> out;
  if (last - first < kFewDecades) {  // few decades: 1, 2 and 5 of each, as plain numbers
    for (int e = first; e <= last; ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
          out.push_back({v, fmt::format("{:g}", v)});
      }
    return out;
  }
  const int from = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int every = std::max(1, (last - from + target) / std::max(target, 1));
  for (int e = from; e <= last; ++e)
    if ((e - from) % every == 0) out.push_back({std::pow(10.0, e), fmt::format("1e{}", e)});
  return out;
}

}  // namespace orrery
