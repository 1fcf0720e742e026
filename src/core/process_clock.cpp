// SPDX-License-Identifier: MIT
#include "orrery/core/process_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace orrery {

namespace {

double clock_seconds(clockid_t id) {
  timespec t{};
  clock_gettime(id, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Field 22 of /proc/self/stat: the start in clock ticks since boot (proc(5)). The name (field
// 2) is in parentheses and may hold spaces, so fields are counted after its closing one.
bool start_ticks(double& ticks) {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const auto close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  for (int k = 3; k <= 22; ++k)
    if (!(rest >> field)) return false;
  try {
    ticks = std::stod(field);
  } catch (...) {
    return false;
  }
  return true;
}

}  // namespace

std::chrono::duration<double> process_clock_tick() {
  const long hz = sysconf(_SC_CLK_TCK);
  return std::chrono::duration<double>(hz > 0 ? 1.0 / static_cast<double>(hz) : 0.01);
}

std::chrono::steady_clock::time_point process_started() {
  const auto now = std::chrono::steady_clock::now();
  double ticks = 0;
  if (!start_ticks(ticks)) return now;
  // The start is on the boot clock, which counts time suspended too; a process is not suspended
  // between its start and this call in any case that matters here.
  const double ago = clock_seconds(CLOCK_BOOTTIME) - ticks * process_clock_tick().count();
  if (!(ago >= 0)) return now;
  return now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(ago));
}

}  // namespace orrery
