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
// which device computed them, or when. This file sets a call up, starts one host thread per
// device (each runs map_device_run.hpp's feeding of its device) and collects the results.
#include "divergence_map_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <functional>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

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
#include "map_device_run.hpp"
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

// While the devices work: every `sweep_every_us` (0.1 ms with ORRERY_GPU_STATS) the calling
// thread copies up to `sweep_at_most` finished result words and, every 0.25 s, reports progress;
// returns, the moment the last device's thread is done, the pixels done over time (recorded
// with ORRERY_GPU_STATS).
std::vector<std::pair<double, std::int64_t>> collect_while_running(
    ThreadTeam& team, ResultCollector& collector, const DivergenceCounts& out,
    const MapRunOptions& options, const MapSchedule& schedule, std::uint64_t total,
    const std::function<double()>& since_start, bool host_stats) {
  std::vector<std::pair<double, std::int64_t>> done_over_time;
  auto reported = std::chrono::steady_clock::now();
  while (!team.wait_for(std::chrono::microseconds(host_stats ? 100 : schedule.sweep_every_us))) {
    collector.sweep(schedule.sweep_at_most);
    if (host_stats) done_over_time.emplace_back(since_start(), collector.pixels_done());
    if (options.progress &&
        std::chrono::steady_clock::now() - reported > std::chrono::milliseconds(250)) {
      reported = std::chrono::steady_clock::now();
      MapProgress p;
      p.pixels_total = static_cast<std::int64_t>(total);
      p.pixels_done = collector.pixels_done();
      p.pixel_steps = out.pixel_steps;
      p.seconds = since_start();
      options.progress(p);
    }
  }
  return done_over_time;
}

// The run's description: the backend, the first device's name, the devices' times and shares.
void describe_run(MapRunInfo& info, const std::vector<int>& devices, const DeviceTimes& times,
                  const MapRunOptions& options) {
  info.backend = to_string(Backend::cuda);
  info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  info.threads = static_cast<int>(devices.size());
  info.device_seconds = *std::max_element(times.busy.begin(), times.busy.end());
  info.launched_seconds = *std::max_element(times.launched.begin(), times.launched.end());
  // Each device finds the pool empty at its next poll; the first to find it saw it happen.
  info.pool_empty_seconds = *std::min_element(times.emptied.begin(), times.emptied.end());
  info.device_done_seconds = times.done;
  for (std::uint64_t n : times.taken)
    info.device_pixels.push_back(static_cast<std::int64_t>(n));
}

}  // namespace

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options, const MapSchedule& schedule) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::function<double()> since_start = [t0] { return seconds_since(t0); };
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
  WorkPool pool(total, !listed, setup.width, setup.height, setup.steps, results, devices.size(),
                dealt);

  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  DeviceTimes times(devices.size());
  // Several devices share the map in proportion to their speeds, measured on each over the
  // first `measure_for_s` of its run: a slower or busier device gets less of what is unstarted.
  SpeedShare speed(devices.size(), pool, schedule.balance, schedule.speed_tolerance);
  // The "not yet" marks, read by the work pool and the result collector, are written in parts
  // by the device threads (each once its device is set up) and the calling thread; no device
  // takes work before every part is written.
  const std::size_t mark_parts = devices.size() + 1;
  std::latch all_marked(static_cast<std::ptrdiff_t>(mark_parts));
  std::vector<char> marked(mark_parts, 0);
  const std::function<void(std::size_t)> mark_not_yet = [&](std::size_t part) {
    std::fill(results + total * part / mark_parts, results + total * (part + 1) / mark_parts,
              kNotYet);
    marked[part] = 1;
    all_marked.arrive_and_wait();
  };
  std::atomic<std::uint64_t> threads_all{0};

  const MapCall call{setup,   options, schedule, total,       list,        devices.size(),
                     results, pool,    speed,    times,       failed,      threads_all,
                     since_start, mark_not_yet};
  auto worker = [&](std::size_t slot) {
    const int d = devices[slot];
    DeviceFeed* feed = nullptr;
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), describe_device(d));
      auto& made = buffers.feeds.at(d);
      if (!made) made = std::make_unique<DeviceFeed>(d);
      feed = made.get();
      run_map_device(call, slot, *feed);
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
  const std::vector<std::pair<double, std::int64_t>> done_over_time = collect_while_running(
      team, collector, out, options, schedule, total, since_start, host_stats);
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
                        since_start(), speed.speeds(), speed.moved());
  describe_run(out.info, devices, times, options);
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
