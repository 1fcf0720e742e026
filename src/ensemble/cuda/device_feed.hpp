// SPDX-License-Identifier: MIT
// What one device of the CUDA divergence map works from: its streams, its work ring and flags
// (pinned host memory the kernel reads), its claim counter and the queue of parked trajectories
// (device memory). Made on the device's host thread, with the device current, and kept from one
// map to the next (pinning and allocating cost far more than reusing).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "device/cuda/memory.hpp"
#include "orrery/core/precision.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

struct DeviceFeed {
  int device;
  std::string where;  // "device 2 (NVIDIA H200)", for messages
  cudaStream_t stream = nullptr;  // the kernel
  cudaStream_t poll = nullptr;    // reading the claim counter while the kernel runs
  cudaEvent_t began = nullptr, ended = nullptr;
  PinnedArray<std::uint64_t> ring;
  std::size_t ring_clean = 0;  // entries known to hold sequence numbers below `sequence`
  std::uint64_t sequence = 0;  // the next run's first sequence number
  PinnedArray<int> flags;      // [0] closed, [1] overrun
  PinnedArray<unsigned long long> claimed_seen;  // [0] claims, [1] progress
  PinnedArray<unsigned long long> caps;          // live caps copied to the device: [0], [1]
  DeviceArray<unsigned long long> claimed;
  DeviceArray<std::uint64_t> list;
  // Parked trajectories (TwinParking).
  DeviceArray<ParkingCounters> park_counters;
  DeviceArray<unsigned long long> park_tag;
  DeviceArray<TwinStats> park_stats;
  DeviceArray<unsigned char> park_state;
  DeviceArray<std::int32_t> park_steps;
  DeviceArray<std::uint32_t> park_item;
  std::map<int, TwinLaunch> shapes;  // by kernel: an occupancy query costs tens of microseconds

  explicit DeviceFeed(int d);
  ~DeviceFeed();
  DeviceFeed(const DeviceFeed&) = delete;
  DeviceFeed& operator=(const DeviceFeed&) = delete;

  // Ready for a run that claims at most `claims` entries: the ring of `capacity` entries, the
  // feed open, no claims, the list (if any) on the device. Returns the sequence number of the
  // run's first claim. Entries left by earlier runs carry smaller sequence numbers than any of
  // this run's, which the kernel ignores, so the ring (megabytes) is cleared only when new or
  // when the 32-bit sequence number would wrap.
  std::uint64_t reset(std::size_t capacity, std::uint64_t claims,
                      std::span<const std::uint64_t> listed);
  // Ready for a run with parking: `capacity` empty slots of states of `parked_bytes` bytes,
  // and the live cap.
  TwinParking reset_parking(std::size_t capacity, int parked_bytes, unsigned long long live_cap);
  // Copies a live cap to the kernel's counters through caps[k] (not reused while in flight).
  void set_live_cap(const TwinParking& q, int k, unsigned long long cap, cudaStream_t on);
  // The claims so far (claimed[0]), read while the kernel runs.
  unsigned long long claims();
  // The device's progress so far (ParkingCounters::progress), read while the kernel runs.
  unsigned long long progress(const TwinParking& q);
  // The launch shape that fills the device with the kernel for these options.
  TwinLaunch shape(const DivergenceSetup& setup, Precision precision, bool exact);
  // No more entries will come: the kernel's threads leave once they find the ring empty.
  void close();
  // Whether the kernel found an entry overwritten before it read it (a bug, reported).
  bool overrun() const;
};

}  // namespace orrery::cuda
