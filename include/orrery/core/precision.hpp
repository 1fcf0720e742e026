// SPDX-License-Identifier: MIT
// Precision modes are named and tested, never silent: fp64 (the reference semantics), fp32, and
// mixed (state in fp64, the gravitational pair factor in fp32).
#pragma once

#include <string>
#include <vector>

namespace orrery {

enum class Precision { fp64, fp32, mixed };

inline const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names{"fp64", "fp32", "mixed"};
  return names;
}
inline const std::string& to_string(Precision p) {
  return precision_names().at(static_cast<std::size_t>(p));
}

}  // namespace orrery
