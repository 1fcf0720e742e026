// SPDX-License-Identifier: MIT
// Where a CUDA map's time went, printed to stderr on request (ORRERY_GPU_STATS,
// docs/internals/map-gpu.md): each device's kernel counters (=1), and when each device reached each
// stage of its run and how the run ended (=host, also with =1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace orrery::cuda {

// Seconds from the start of the call, per device: when it was set up, had written its part of
// the "not yet" marks, had its first entries, was launched, found the pool empty and was seen
// done; its kernel's own time; and the pixels it computed.
struct DeviceTimes {
  explicit DeviceTimes(std::size_t devices)
      : set_up(devices, 0.0), marked(devices, 0.0), granted_first(devices, 0.0),
        launched(devices, 0.0), emptied(devices, 0.0), done(devices, 0.0), busy(devices, 0.0),
        taken(devices, 0) {}
  std::vector<double> set_up, marked, granted_first, launched, emptied, done, busy;
  std::vector<std::uint64_t> taken;
};

// The kernel's diagnostic counters (TwinStats, twin_kernel.hpp) of one device.
struct TwinStats;
void print_kernel_stats(const std::string& where, const TwinStats& stats);

// The call's timeline: each device's stages; when fewer pixels than k times all devices'
// `threads` were left (from `done_over_time`, pixels done against seconds); when the threads
// were joined and the results copied; the measured speeds and the pixels they moved.
void print_host_timeline(const std::vector<int>& devices, const DeviceTimes& times,
                         const std::vector<std::pair<double, std::int64_t>>& done_over_time,
                         std::uint64_t threads, std::uint64_t total, double joined,
                         double copied, const std::vector<double>& speeds, std::uint64_t moved);

}  // namespace orrery::cuda
