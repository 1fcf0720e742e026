// SPDX-License-Identifier: MIT
#include "orrery/render/colormap.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "colormap_tables.hpp"
#include "orrery/core/error.hpp"

namespace orrery {

const std::vector<std::string>& Colormap::names() {
  static const std::vector<std::string> n{"inferno", "magma", "viridis", "gray"};
  return n;
}

const Colormap& Colormap::by_name(const std::string& name) {
  static const Colormap maps[] = {{"inferno", tables::inferno},
                                  {"magma", tables::magma},
                                  {"viridis", tables::viridis},
                                  {"gray", nullptr}};
  for (const auto& m : maps)
    if (m.name_ == name) return m;
  throw ParameterError("colormap", name, fmt::format("one of: {}", fmt::join(names(), ", ")));
}

Rgb8 Colormap::at(double t) const {
  t = std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0);
  const int i = std::min(255, static_cast<int>(t * 256.0));
  if (!table_) {
    const auto v = static_cast<std::uint8_t>(i);
    return {v, v, v};
  }
  const std::uint32_t c = table_[i];
  return {static_cast<std::uint8_t>(c >> 16), static_cast<std::uint8_t>(c >> 8),
          static_cast<std::uint8_t>(c)};
}

}  // namespace orrery
