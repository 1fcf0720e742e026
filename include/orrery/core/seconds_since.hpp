// SPDX-License-Identifier: MIT
// Seconds on the steady clock since a time point taken from it: how a phase of work is timed.
#pragma once

#include <chrono>

namespace orrery {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace orrery
