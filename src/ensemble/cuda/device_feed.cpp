// SPDX-License-Identifier: MIT
#include "device_feed.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string_view>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"

namespace orrery::cuda {

DeviceFeed::DeviceFeed(int d) : device(d), where(describe_device(d)) {
  ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), where);
  ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&poll, cudaStreamNonBlocking), where);
  ORRERY_CUDA_CHECK(cudaEventCreate(&began), where);
  ORRERY_CUDA_CHECK(cudaEventCreate(&ended), where);
  flags.reserve(2);
  claimed_seen.reserve(2);
  caps.reserve(2);
  claimed.reserve(1);
}

DeviceFeed::~DeviceFeed() {
  if (began) cudaEventDestroy(began);
  if (ended) cudaEventDestroy(ended);
  if (poll) cudaStreamDestroy(poll);
  if (stream) cudaStreamDestroy(stream);
}

std::uint64_t DeviceFeed::reset(std::size_t capacity, std::uint64_t claims,
                                std::span<const std::uint64_t> listed) {
  const bool grows = capacity > ring_clean;
  std::uint64_t* entries = ring.reserve(capacity);
  if (grows || sequence + claims >= (std::uint64_t{1} << 32) - 1) {
    ring_clean = std::max<std::size_t>(ring_clean, capacity);
    std::fill_n(entries, ring_clean, 0);
    sequence = 0;
  }
  const std::uint64_t first = sequence;
  sequence += claims;
  flags.get()[0] = flags.get()[1] = 0;
  ORRERY_CUDA_CHECK(
      cudaMemsetAsync(claimed.reserve(1), 0, sizeof(unsigned long long), stream), where);
  if (!listed.empty())
    ORRERY_CUDA_CHECK(
        cudaMemcpyAsync(list.reserve(listed.size()), listed.data(),
                        listed.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream),
        where);
  return first;
}

TwinParking DeviceFeed::reset_parking(std::size_t capacity, int parked_bytes,
                                      unsigned long long live_cap) {
  TwinParking q;
  q.capacity = capacity;
  q.counters = park_counters.reserve(1);
  q.tag = park_tag.reserve(capacity);
  q.state = park_state.reserve(capacity * parked_bytes);
  q.steps = park_steps.reserve(capacity);
  q.item = park_item.reserve(capacity);
  ORRERY_CUDA_CHECK(cudaMemsetAsync(q.counters, 0, sizeof(ParkingCounters), stream),
                    where);
  set_live_cap(q, 0, live_cap, stream);
  ORRERY_CUDA_CHECK(cudaMemsetAsync(q.tag, 0, capacity * sizeof(unsigned long long), stream),
                    where);
  if (const char* v = std::getenv("ORRERY_GPU_STATS"); v && std::string_view(v) != "host") {
    q.stats = park_stats.reserve(1);
    ORRERY_CUDA_CHECK(cudaMemsetAsync(q.stats, 0, sizeof(TwinStats), stream), where);
  }
  return q;
}

void DeviceFeed::set_live_cap(const TwinParking& q, int k, unsigned long long cap,
                              cudaStream_t on) {
  caps.get()[k] = cap;
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(&q.counters->live_cap, caps.get() + k, sizeof cap,
                                    cudaMemcpyHostToDevice, on),
                    where);
}

unsigned long long DeviceFeed::claims() {
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(claimed_seen.get(), claimed.get(),
                                    sizeof(unsigned long long), cudaMemcpyDeviceToHost, poll),
                    where);
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(poll), where);
  return claimed_seen.get()[0];
}

unsigned long long DeviceFeed::progress(const TwinParking& q) {
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(claimed_seen.get() + 1, &q.counters->progress,
                                    sizeof(unsigned long long), cudaMemcpyDeviceToHost, poll),
                    where);
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(poll), where);
  return claimed_seen.get()[1];
}

TwinLaunch DeviceFeed::shape(const DivergenceSetup& setup, Precision precision, bool exact) {
  const int key =
      ((setup.integrator * 3 + static_cast<int>(precision)) * 2 + exact) * 3 + setup.body;
  auto it = shapes.find(key);
  if (it == shapes.end())
    it = shapes.emplace(key, twin_launch_shape(setup, precision, exact, device)).first;
  return it->second;
}

void DeviceFeed::close() {
  std::atomic_ref<int>(flags.get()[0]).store(1, std::memory_order_release);
}

bool DeviceFeed::overrun() const { return std::atomic_ref<int>(flags.get()[1]).load() != 0; }

}  // namespace orrery::cuda
