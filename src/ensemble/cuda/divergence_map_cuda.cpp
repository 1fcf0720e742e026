// SPDX-License-Identifier: MIT
// All GPUs of a host: one host thread (kept between calls, thread_team.hpp), one stream and one
// persistent kernel launch per device.
// Each host thread keeps its device's work ring (pinned host memory the kernel reads,
// device_feed.hpp) a little ahead of what the device has claimed, taking pixels from one pool
// (work_pool.hpp): first the device's equal deal (by default the deals cover the map), then what
// is shared, then the unstarted end of another device's deal, so a slower or busier device
// simply ends up with fewer pixels and all finish together (speed_share.hpp). How much of each
// is a policy (map_schedule_policy.hpp).
// Counts are written by the devices straight into pinned host memory; they do not depend on
// which device computed them, or when.
#include "divergence_map_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <functional>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "device/cpu/thread_team.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "device/cuda/memory.hpp"
#include "device_feed.hpp"
#include "ensemble/schedule/result_collector.hpp"
#include "ensemble/schedule/work_pool.hpp"
#include "map_diagnostics.hpp"
#include "orrery/core/error.hpp"
#include "speed_share.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

// What one call leaves for the next: the pinned results and each device's feed. Pinning host pages
// is slow next to a device's share of a map (docs/internals/map-gpu.md); a process that makes many
// maps (a benchmark, a zoom sequence) pays it once. One call at a time uses them; a concurrent call
// makes its own.
struct RunBuffers {
  PinnedArray<std::int32_t> results;  // result words (result_collector.hpp)
  std::map<int, std::unique_ptr<DeviceFeed>> feeds;  // made by each device's host thread
  // Host threads: slot i serves the call's i-th device, then a slice of the last copy.
  ThreadTeam team;
};

// The buffers kept between calls, and the lock of the call that uses them. Never destroyed: the
// CUDA runtime may be gone before static destructors run.
std::mutex& reuse_mutex() {
  static auto* const mutex = new std::mutex;
  return *mutex;
}
RunBuffers& reused() {
  static auto* const buffers = new RunBuffers;
  return *buffers;
}

std::vector<int> devices_of(const std::vector<int>& named) {
  std::vector<int> devices = named;
  if (devices.empty()) {
    devices.resize(static_cast<std::size_t>(device_count()));
    std::iota(devices.begin(), devices.end(), 0);
  }
  return devices;
}

std::uint64_t next_power_of_two(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

void validate(const MapSchedule& s) {
  if (s.segment < 0 || (s.segment & (s.segment - 1)) != 0)
    throw ParameterError("schedule.segment", std::to_string(s.segment), "0 or a power of two");
  if (!(s.live_per_thread > 0))
    throw ParameterError("schedule.live_per_thread", fmt::format("{}", s.live_per_thread),
                         "a number above 0");
  if (!(s.device_share > 0 && s.device_share <= 1))
    throw ParameterError("schedule.device_share", fmt::format("{}", s.device_share),
                         "a fraction in (0, 1]");
}

}  // namespace

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options, const MapSchedule& schedule) {
  const auto t0 = std::chrono::steady_clock::now();
  validate(schedule);
  const std::vector<int> devices = devices_of(options.devices);
  const auto width = static_cast<std::uint64_t>(setup.width);
  const std::uint64_t grid = width * static_cast<std::uint64_t>(setup.height);
  const bool listed = !pixels.empty();
  const std::uint64_t total = listed ? pixels.size() : grid;
  if (total >= (std::uint64_t{1} << 32))
    throw ParameterError("width/height", fmt::format("{} pixels", total),
                         "fewer than 2^32 pixels on the CUDA backend");
  std::vector<std::uint64_t> list;
  for (const auto& [j, k] : pixels) list.push_back(static_cast<std::uint64_t>(k) * width + j);

  std::unique_lock<std::mutex> reuse(reuse_mutex(), std::try_to_lock);
  std::unique_ptr<RunBuffers> own;
  RunBuffers& buffers = reuse.owns_lock() ? reused() : *(own = std::make_unique<RunBuffers>());
  for (int d : devices) buffers.feeds.try_emplace(d);  // filled by the device's thread

  // Results land here, written by the kernels.
  std::int32_t* results = buffers.results.reserve(total);
  // Several devices are dealt `device_share` of the map (default all of it) at the start in
  // equal stretches of the spread order (which carry nearly the same work,
  // docs/internals/map-gpu.md) and share the rest as they free threads; a device that has started
  // all it can takes the unstarted end of another's deal. Both balance devices that run at
  // different speeds.
  const std::uint64_t dealt =
      devices.size() > 1
          ? static_cast<std::uint64_t>(schedule.device_share * static_cast<double>(total))
          : 0;
  const double live_per_thread = schedule.live_per_thread;
  WorkPool pool(total, !listed, setup.width, setup.height, setup.steps, results, devices.size(),
                dealt);

  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  DeviceTimes times(devices.size());
  // Several devices share the map in proportion to their speeds, measured on each over the
  // first `measure_for_s` of its run: a slower or busier device gets less of what is unstarted.
  const bool balancing = devices.size() > 1;
  SpeedShare speed(devices.size(), pool, schedule.balance, schedule.speed_tolerance);
  // The "not yet" marks, read by the work pool and the result collector, are written in parts
  // by the device threads (each once its device is set up) and the calling thread; no device
  // takes work before every part is written.
  const std::size_t mark_parts = devices.size() + 1;
  std::latch all_marked(static_cast<std::ptrdiff_t>(mark_parts));
  std::vector<char> marked(mark_parts, 0);
  auto mark_not_yet = [&](std::size_t part) {
    std::fill(results + total * part / mark_parts, results + total * (part + 1) / mark_parts,
              kNotYet);
    marked[part] = 1;
    all_marked.arrive_and_wait();
  };
  std::atomic<std::uint64_t> threads_all{0};  // all devices' threads (diagnostics)

  auto worker = [&](std::size_t slot) {
    const int d = devices[slot];
    const std::string where = describe_device(d);
    DeviceFeed* feed = nullptr;
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), where);
      auto& made = buffers.feeds.at(d);
      if (!made) made = std::make_unique<DeviceFeed>(d);
      feed = made.get();
      TwinLaunch shape = feed->shape(setup, options.precision, options.exact_gpu);
      if (schedule.blocks > 0) shape.blocks = schedule.blocks;
      const std::uint64_t threads = std::uint64_t(shape.blocks) * shape.threads_per_block;
      threads_all += threads;
      // Entries written ahead of the claims: at the start every thread's first item, then four
      // polls' worth of what the device claims (at least `feed_ahead_least`), so that pixels leave
      // the shared pool late: by then their neighbours' counts order them best, and the device that
      // is free first takes them. The ring holds four times the most ever written ahead, so an
      // entry is overwritten only long after its thread has read it (the kernel checks, see
      // `overrun`).
      const std::uint64_t least = schedule.feed_ahead_least;
      const std::uint64_t capacity = next_power_of_two(4 * (threads + least));
      // Each thread's last claim finds the feed closed: at most one claim per item and thread.
      const std::uint64_t first_claim = feed->reset(capacity, total + threads, list);
      TwinParking parking;
      // The live caps: with several devices, first a lower one that keeps most of each deal
      // unstarted while the devices' speeds are measured, then the full one.
      const double n = static_cast<double>(threads);
      const double measuring = balancing ? schedule.measuring_live_per_thread : live_per_thread;
      const auto final_cap = static_cast<std::uint64_t>(std::ceil(std::min(
          live_per_thread * n,
          static_cast<double>(total) * (balancing ? 1.0 : schedule.device_share))));
      const auto first_cap = static_cast<std::uint64_t>(std::ceil(
          std::min({live_per_thread * n, measuring * n,
                    schedule.device_share * static_cast<double>(total) /
                        static_cast<double>(devices.size())})));
      if (schedule.segment > 0) {
        // At most every live pixel parked at once, and the live set exceeds its cap only by
        // threads that found the queue empty: twice that leaves every slot read long before
        // it is written again.
        const std::uint64_t most = std::max({first_cap, final_cap, threads});
        parking = feed->reset_parking(next_power_of_two(2 * (most + threads)),
                                      twin_parked_bytes(setup, options.precision), first_cap);
        parking.segment = static_cast<unsigned>(schedule.segment);
        parking.catch_up = schedule.catch_up;
      }
      bool measured = !balancing || schedule.segment == 0, raised = measured;
      std::uint64_t* ring = feed->ring.get();
      std::uint64_t granted = 0;
      std::vector<std::uint64_t> chunk(4096);
      // Writes entries up to `target` claims from the device's deal and the shared rest, and
      // up to `needed` from other devices' deals (work_pool.hpp); false once the pool is empty.
      auto grant = [&](std::uint64_t target, std::uint64_t needed) {
        while (granted < target) {
          const std::uint64_t want = std::min<std::uint64_t>(chunk.size(), target - granted);
          std::size_t n = pool.take({chunk.data(), want}, slot, false);
          if (n == 0 && granted < needed)
            n = pool.take({chunk.data(), std::min<std::uint64_t>(want, needed - granted)}, slot);
          else if (n == 0)
            return true;  // others' deals remain, and this device does not need them yet
          if (n == 0) {
            times.emptied[slot] = seconds_since(t0);
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
      times.set_up[slot] = seconds_since(t0);
      mark_not_yet(slot);
      times.marked[slot] = seconds_since(t0);
      bool open = grant(threads + least, threads + least);
      if (!open) feed->close();
      times.granted_first[slot] = seconds_since(t0);
      ORRERY_CUDA_CHECK(cudaEventRecord(feed->began, feed->stream), where);
      launch_twin_kernel(setup, options.precision, options.exact_gpu,
                         TwinFeed{ring, capacity, first_claim, feed->flags.get(),
                                  feed->flags.get() + 1, feed->claimed.get(),
                                  listed ? feed->list.get() : nullptr, results, parking},
                         shape, feed->stream);
      ORRERY_CUDA_CHECK(cudaEventRecord(feed->ended, feed->stream), where);
      times.launched[slot] = seconds_since(t0);
      std::uint64_t seen = threads;  // claims beyond every thread's first are completions
      while (open && !failed) {
        std::this_thread::sleep_for(std::chrono::microseconds(schedule.poll_every_us));
        const std::uint64_t claimed = feed->claims();
        const std::uint64_t recent = claimed > seen ? claimed - seen : 0;
        seen = std::max(seen, claimed);
        if (!measured && seconds_since(t0) - times.launched[slot] >= schedule.measure_for_s) {
          speed.report(slot, static_cast<double>(feed->progress(parking)));
          measured = true;
        }
        if (!raised && speed.decided()) {
          feed->set_live_cap(parking, 1, final_cap, feed->poll);
          raised = true;
        }
        open = grant(claimed + std::clamp<std::uint64_t>(4 * recent, least, capacity / 4),
                     claimed + least);
        if (!open) feed->close();
      }
      if (!measured) speed.report(slot, 0);  // no measurement: nothing is moved
      if (failed) feed->close();
      ORRERY_CUDA_CHECK(cudaEventSynchronize(feed->ended),
                        fmt::format("{}: computing {} pixels", where, granted));
      times.done[slot] = seconds_since(t0);
      times.taken[slot] = granted;
      if (feed->overrun())
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
      ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, feed->began, feed->ended), where);
      times.busy[slot] = ms * 1e-3;
    } catch (...) {
      errors[slot] = std::current_exception();
      failed = true;
      if (!marked[slot]) mark_not_yet(slot);  // the others wait for every part
      if (feed) {  // stop this device's kernel too, and wait for it before anything is freed
        feed->close();
        cudaStreamSynchronize(feed->stream);
      }
    }
  };

  ThreadTeam& team = buffers.team;
  team.start(devices.size(), worker);
  // Every job returns before the call does, however it leaves.
  struct Joined {
    ThreadTeam& team;
    ~Joined() { team.wait(); }
  } joined{team};
  mark_not_yet(devices.size());
  // The results' own memory, touched while the devices work (first-touch page faults of megabytes
  // are slow), and filled as pixels finish: every `sweep_every_us` the calling thread looks at up
  // to `sweep_at_most` result words, copying the finished ones; what is left when the last device
  // is done is copied by the host threads together (finish, below). It reports progress meanwhile
  // and wakes the moment the last device is done.
  DivergenceCounts out;
  out.counts.resize(total);
  out.nonfinite.resize(total);
  ResultCollector collector(results, out);
  const bool host_stats = std::getenv("ORRERY_GPU_STATS") != nullptr;
  // Diagnostics (ORRERY_GPU_STATS): pixels done over time, swept every 0.1 ms.
  std::vector<std::pair<double, std::int64_t>> done_over_time;
  {
    auto reported = std::chrono::steady_clock::now();
    while (!team.wait_for(std::chrono::microseconds(host_stats ? 100 : schedule.sweep_every_us))) {
      collector.sweep(schedule.sweep_at_most);
      if (host_stats) done_over_time.emplace_back(seconds_since(t0), collector.pixels_done());
      if (options.progress && std::chrono::steady_clock::now() - reported >
                                  std::chrono::milliseconds(250)) {
        reported = std::chrono::steady_clock::now();
        MapProgress p;
        p.pixels_total = static_cast<std::int64_t>(total);
        p.pixels_done = collector.pixels_done();
        p.pixel_steps = out.pixel_steps;
        p.seconds = seconds_since(t0);
        options.progress(p);
      }
    }
  }
  for (auto& e : errors)
    if (e) {
      if (!own) reused().feeds.clear();  // a device in an unknown state starts afresh next time
      std::rethrow_exception(e);
    }

  const double all_done = seconds_since(t0);
  // Most pixels of a device end at its very end (the trajectories behind catch up):
  // the last copy is shared by the host threads, at least `last_copy_threads` where the
  // process may use that many CPUs.
  const auto copy_threads = std::min<std::size_t>(
      schedule.last_copy_threads, static_cast<std::size_t>(affinity_cpu_count()));
  collector.finish(std::max<std::size_t>(devices.size(), copy_threads),
                   [&](std::size_t n, const std::function<void(std::size_t)>& job) {
                     team.start(n, job);
                     team.wait();
                   });
  if (host_stats)  // diagnostics, on request: where the call's time went
    print_host_timeline(devices, times, done_over_time, threads_all, total, all_done,
                        seconds_since(t0), speed.speeds(), speed.moved());
  out.info.backend = to_string(Backend::cuda);
  out.info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(devices.size());
  out.info.device_seconds = *std::max_element(times.busy.begin(), times.busy.end());
  out.info.launched_seconds = *std::max_element(times.launched.begin(), times.launched.end());
  // Each device finds the pool empty at its next poll; the first to find it saw it happen.
  out.info.pool_empty_seconds = *std::min_element(times.emptied.begin(), times.emptied.end());
  out.info.device_done_seconds = times.done;
  for (std::uint64_t n : times.taken)
    out.info.device_pixels.push_back(static_cast<std::int64_t>(n));
  return out;
}

void prepare_divergence_map(const DivergenceMapParams& params, const std::vector<int>& named,
                            Precision precision, bool exact) {
  const std::vector<int> devices = devices_of(named);
  if (devices.empty()) return;
  orrery::validate(params);
  const DivergenceSetup setup = make_divergence_setup(params);
  const auto total = static_cast<std::uint64_t>(params.width) *
                     static_cast<std::uint64_t>(params.height);
  // The map that follows waits for this before it takes the buffers (MapPreparation).
  std::lock_guard<std::mutex> reuse(reuse_mutex());
  RunBuffers& buffers = reused();
  for (int d : devices) buffers.feeds.try_emplace(d);
  std::vector<std::exception_ptr> errors(devices.size());
  // Each device on its own host thread, as the map runs it: their contexts are made side by side.
  buffers.team.start(devices.size(), [&](std::size_t slot) {
    try {
      const int d = devices[slot];
      ORRERY_CUDA_CHECK(cudaSetDevice(d), describe_device(d));
      auto& made = buffers.feeds.at(d);
      if (!made) made = std::make_unique<DeviceFeed>(d);
      made->shape(setup, precision, exact);  // loads the kernel's module, too
      if (slot == 0) buffers.results.reserve(total);
    } catch (...) {
      errors[slot] = std::current_exception();
    }
  });
  buffers.team.wait();
  for (auto& e : errors)
    if (e) {
      buffers.feeds.clear();
      std::rethrow_exception(e);
    }
}

}  // namespace orrery::cuda
