// SPDX-License-Identifier: MIT
#include "map_device_run.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "orrery/core/error.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

std::uint64_t next_power_of_two(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

}  // namespace

void run_map_device(const MapCall& c, std::size_t slot, DeviceFeed& feed) {
  const std::string& where = feed.where;
  TwinLaunch shape = feed.shape(c.setup, c.options.precision, c.options.exact_gpu);
  if (c.schedule.blocks > 0) shape.blocks = c.schedule.blocks;
  const std::uint64_t threads = std::uint64_t(shape.blocks) * shape.threads_per_block;
  c.threads_all += threads;
  // Entries written ahead of the claims: at the start every thread's first item, then four
  // polls' worth of what the device claims (at least `feed_ahead_least`), so that pixels leave
  // the shared pool late: by then their neighbours' counts order them best, and the device that
  // is free first takes them. The ring holds four times the most ever written ahead, so an
  // entry is overwritten only long after its thread has read it (the kernel checks, see
  // `overrun`).
  const std::uint64_t least = c.schedule.feed_ahead_least;
  const std::uint64_t capacity = next_power_of_two(4 * (threads + least));
  // Each thread's last claim finds the feed closed: at most one claim per item and thread.
  const std::uint64_t first_claim = feed.reset(capacity, c.total + threads, c.list);
  TwinParking parking;
  // The live caps: with several devices, first a lower one that keeps most of each deal
  // unstarted while the devices' speeds are measured, then the full one.
  const double n = static_cast<double>(threads);
  const double live_per_thread = c.schedule.live_per_thread;
  const bool balancing = c.devices > 1;
  const double measuring = balancing ? c.schedule.measuring_live_per_thread : live_per_thread;
  const auto final_cap = static_cast<std::uint64_t>(std::ceil(std::min(
      live_per_thread * n,
      static_cast<double>(c.total) * (balancing ? 1.0 : c.schedule.device_share))));
  const auto first_cap = static_cast<std::uint64_t>(std::ceil(
      std::min({live_per_thread * n, measuring * n,
                c.schedule.device_share * static_cast<double>(c.total) /
                    static_cast<double>(c.devices)})));
  if (c.schedule.segment > 0) {
    // At most every live pixel parked at once, and the live set exceeds its cap only by
    // threads that found the queue empty: twice that leaves every slot read long before
    // it is written again.
    const std::uint64_t most = std::max({first_cap, final_cap, threads});
    parking = feed.reset_parking(next_power_of_two(2 * (most + threads)),
                                  twin_parked_bytes(c.setup, c.options.precision), first_cap);
    parking.segment = static_cast<unsigned>(c.schedule.segment);
    parking.catch_up = c.schedule.catch_up;
  }
  bool measured = !balancing || c.schedule.segment == 0, raised = measured;
  std::uint64_t* ring = feed.ring.get();
  std::uint64_t granted = 0;
  std::vector<std::uint64_t> chunk(4096);
  // Writes entries up to `target` claims from the device's deal and the shared rest, and
  // up to `needed` from other devices' deals (work_pool.hpp); false once the pool is empty.
  auto grant = [&](std::uint64_t target, std::uint64_t needed) {
    while (granted < target) {
      const std::uint64_t want = std::min<std::uint64_t>(chunk.size(), target - granted);
      std::size_t n = c.pool.take({chunk.data(), want}, slot, false);
      if (n == 0 && granted < needed)
        n = c.pool.take({chunk.data(), std::min<std::uint64_t>(want, needed - granted)}, slot);
      else if (n == 0)
        return true;  // others' deals remain, and this device does not need them yet
      if (n == 0) {
        c.times.emptied[slot] = c.since_start();
        return false;
      }
      for (std::size_t i = 0; i < n; ++i, ++granted)
        std::atomic_ref<std::uint64_t>(ring[(first_claim + granted) & (capacity - 1)])
            .store(((first_claim + granted + 1) << 32) | chunk[i], std::memory_order_release);
    }
    return true;
  };
  // Every thread's first entry is written before the launch: threads that find none poll
  // the host's memory, and a full device of threads doing so delays the whole run. The
  // pool reads the "not yet" marks, so they come first.
  c.times.set_up[slot] = c.since_start();
  c.mark_not_yet(slot);
  c.times.marked[slot] = c.since_start();
  bool open = grant(threads + least, threads + least);
  if (!open) feed.close();
  c.times.granted_first[slot] = c.since_start();
  ORRERY_CUDA_CHECK(cudaEventRecord(feed.began, feed.stream), where);
  launch_twin_kernel(c.setup, c.options.precision, c.options.exact_gpu,
                     TwinFeed{ring, capacity, first_claim, feed.flags.get(),
                              feed.flags.get() + 1, feed.claimed.get(),
                              c.list.empty() ? nullptr : feed.list.get(), c.results,
                              parking},
                     shape, feed.stream);
  ORRERY_CUDA_CHECK(cudaEventRecord(feed.ended, feed.stream), where);
  c.times.launched[slot] = c.since_start();
  std::uint64_t seen = threads;  // claims beyond every thread's first are completions
  while (open && !c.failed) {
    std::this_thread::sleep_for(std::chrono::microseconds(c.schedule.poll_every_us));
    const std::uint64_t claimed = feed.claims();
    const std::uint64_t recent = claimed > seen ? claimed - seen : 0;
    seen = std::max(seen, claimed);
    if (!measured && c.since_start() - c.times.launched[slot] >= c.schedule.measure_for_s) {
      c.speed.report(slot, static_cast<double>(feed.progress(parking)));
      measured = true;
    }
    if (!raised && c.speed.decided()) {
      feed.set_live_cap(parking, 1, final_cap, feed.poll);
      raised = true;
    }
    open = grant(claimed + std::clamp<std::uint64_t>(4 * recent, least, capacity / 4),
                 claimed + least);
    if (!open) feed.close();
  }
  if (!measured) c.speed.report(slot, 0);  // no measurement: nothing is moved
  if (c.failed) feed.close();
  ORRERY_CUDA_CHECK(cudaEventSynchronize(feed.ended),
                    fmt::format("{}: computing {} pixels", where, granted));
  c.times.done[slot] = c.since_start();
  c.times.taken[slot] = granted;
  if (feed.overrun())
    throw RunError(
        fmt::format("{}: a work entry was overwritten before it was read "
                    "(ring of {} entries); this is a bug",
                    where, capacity));
  if (parking.stats) {  // diagnostics, on request
    TwinStats stats;
    ORRERY_CUDA_CHECK(cudaMemcpy(&stats, parking.stats, sizeof stats, cudaMemcpyDeviceToHost),
                      where);
    print_kernel_stats(where, stats);
  }
  float ms = 0;
  ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, feed.began, feed.ended), where);
  c.times.busy[slot] = ms * 1e-3;
}

}  // namespace orrery::cuda
