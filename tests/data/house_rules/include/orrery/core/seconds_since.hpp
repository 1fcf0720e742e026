// The one place the seconds since a time point are written: not a copy.
#pragma once
#include <chrono>
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
