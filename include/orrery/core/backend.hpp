// SPDX-License-Identifier: MIT
// Compute backends are chosen by name. "auto" takes CUDA when this build has it and a device is
// present, else the CPU.
#pragma once

#include <string>
#include <vector>

namespace orrery {

enum class Backend { cpu, cuda, automatic };

inline const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> names{"cpu", "cuda", "auto"};
  return names;
}
inline const std::string& to_string(Backend b) {
  return backend_names().at(static_cast<std::size_t>(b));
}

}  // namespace orrery
