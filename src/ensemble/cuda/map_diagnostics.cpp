// SPDX-License-Identifier: MIT
#include "map_diagnostics.hpp"

#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "device/cuda/device_info.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

void print_kernel_stats(const std::string& where, const TwinStats& s) {
  const std::pair<const char*, unsigned long long> named[] = {
      {"segment_ends", s.segment_ends}, {"cycles_at_ends", s.cycles_at_ends},
      {"cycles_new", s.cycles_new},     {"cycles_take", s.cycles_take},
      {"cycles_park", s.cycles_park},   {"ring_waits", s.ring_waits},
      {"warps_left", s.warps_left},     {"unpark_waits", s.unpark_waits},
      {"park_waits", s.park_waits}};
  std::string line = where + ":";
  for (const auto& [name, value] : named) line += fmt::format(" {}={}", name, value);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void print_host_timeline(const std::vector<int>& devices, const DeviceTimes& t,
                         const std::vector<std::pair<double, std::int64_t>>& done_over_time,
                         std::uint64_t threads, std::uint64_t total, double joined,
                         double copied, const std::vector<double>& speeds, std::uint64_t moved) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    std::fprintf(stderr,
                 "%s: ms from the call: set up %.3f, marked %.3f, first entries %.3f, "
                 "launched %.3f, pool empty %.3f, done %.3f (kernel %.3f); %llu pixels\n",
                 describe_device(devices[i]).c_str(), 1e3 * t.set_up[i], 1e3 * t.marked[i],
                 1e3 * t.granted_first[i], 1e3 * t.launched[i], 1e3 * t.emptied[i],
                 1e3 * t.done[i], 1e3 * t.busy[i], static_cast<unsigned long long>(t.taken[i]));
  // When the pixels left fell below multiples of the devices' threads: the end of the run.
  std::string tail;
  for (double k : {8.0, 4.0, 2.0, 1.0, 0.5, 0.25, 0.1, 0.01}) {
    const double below = k * static_cast<double>(threads);
    for (const auto& [s, n] : done_over_time)
      if (static_cast<double>(total) - static_cast<double>(n) < below) {
        tail += fmt::format(" {}T {:.3f}", k, 1e3 * s);
        break;
      }
  }
  std::fprintf(stderr, "host: ms when fewer pixels than k threads were left:%s\n", tail.c_str());
  std::string listed;
  for (double v : speeds) listed += fmt::format(" {:.0f}", v);
  std::fprintf(stderr,
               "host: ms from the call: threads joined %.3f, results copied %.3f; speeds%s, "
               "%llu pixels moved\n",
               1e3 * joined, 1e3 * copied, listed.c_str(), static_cast<unsigned long long>(moved));
}

}  // namespace orrery::cuda
