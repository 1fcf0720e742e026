// SPDX-License-Identifier: MIT
// One device's part of a CUDA map, run by the device's host thread (divergence_map_cuda.cpp runs
// one per device): the device's feed shaped for the map, its live caps and parking set, every
// thread's first entry written and the persistent kernel launched (twin_kernel.cuh); then the
// ring kept ahead of the device's claims from the shared pool (work_pool.hpp) until the pool is
// empty, the live cap raised once the devices' speeds are known (speed_share.hpp), and the
// kernel waited for. The feeding, apart from the call's set-up and the results' collection.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "device_feed.hpp"
#include "ensemble/schedule/work_pool.hpp"
#include "map_diagnostics.hpp"
#include "map_schedule_policy.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "speed_share.hpp"

namespace orrery::cuda {

// What the devices of one call share.
struct MapCall {
  const DivergenceSetup& setup;
  const MapRunOptions& options;
  const MapSchedule& schedule;
  std::uint64_t total;                  // pixels of the call
  std::span<const std::uint64_t> list;  // the listed pixels' grid indices; empty: the grid
  std::size_t devices;                  // devices of the call
  std::int32_t* results;                // result words, written by the kernels
  WorkPool& pool;
  SpeedShare& speed;
  DeviceTimes& times;
  const std::atomic<bool>& failed;  // a device failed: the others stop feeding
  std::atomic<std::uint64_t>& threads_all;  // all devices' threads (diagnostics)
  std::function<double()> since_start;      // seconds since the call began
  std::function<void(std::size_t)> mark_not_yet;  // writes a device's part of the "not yet" marks
};

// Runs the call's device `slot`, whose feed (made for its CUDA device, which is current) is
// `feed`, to the end of its kernel. Throws what went wrong; the caller then closes the feed and
// waits for the kernel.
void run_map_device(const MapCall& c, std::size_t slot, DeviceFeed& feed);

}  // namespace orrery::cuda
