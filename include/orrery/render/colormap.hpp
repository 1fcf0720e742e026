// SPDX-License-Identifier: MIT
// Colour maps by name: matplotlib's perceptually uniform inferno, magma and viridis, and gray.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace orrery {

struct Rgb8 {
  std::uint8_t r, g, b;
  bool operator==(const Rgb8&) const = default;
};

class Colormap {
 public:
  // Throws ParameterError("colormap", name, the names) for an unknown name.
  static const Colormap& by_name(const std::string& name);
  static const std::vector<std::string>& names();

  const std::string& name() const { return name_; }
  // t in [0, 1] (clamped) to one of 256 colours; 0 is the map's darkest end.
  Rgb8 at(double t) const;

 private:
  Colormap(std::string name, const std::uint32_t* table) : name_(std::move(name)), table_(table) {}
  std::string name_;
  const std::uint32_t* table_;  // 256 entries 0xRRGGBB; null for gray
};

}  // namespace orrery
