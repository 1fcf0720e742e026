// SPDX-License-Identifier: MIT
// All GPUs of a host: one host thread (kept between calls, thread_team.hpp), one stream and one
// persistent kernel launch per device.
// Each host thread keeps its device's work ring (pinned host memory the kernel reads) a little
// ahead of what the device has claimed, taking pixels from one pool (work_pool.hpp): first the
// device's equal deal (by default the deals cover the map), then what is shared, then the
// unstarted end of another device's deal, so a slower or busier device simply ends up with
// fewer pixels and all finish together.
// Counts are written by the devices straight into pinned host memory; they do not depend on
// which device computed them, or when.
#include "divergence_map_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "ensemble/schedule/result_collector.hpp"
#include "device/cpu/thread_team.hpp"
#include "ensemble/schedule/work_pool.hpp"
#include "device/cuda/cuda_check.hpp"
#include "orrery/core/error.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

std::string describe(int device) {
  return fmt::format("device {} ({})", device, device_name(device));
}

// Where a GrowingArray lives. Device memory (of the current device): out-of-memory names the
// request and what is free.
struct DeviceMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) {
      cudaGetLastError();
      int device = 0;
      cudaGetDevice(&device);
      std::size_t free_bytes = 0, total_bytes = 0;
      cudaMemGetInfo(&free_bytes, &total_bytes);
      throw RunError(fmt::format("{}: out of device memory: asked for {} bytes, {} of {} free ({})",
                                 describe(device), bytes, free_bytes, total_bytes,
                                 cudaGetErrorString(err)));
    }
    return p;
  }
  static void release(void* p) { cudaFree(p); }
};

// Pinned host memory, visible to every device (portable) and addressable from kernels (mapped).
struct PinnedMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    ORRERY_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
                      fmt::format("allocating {} bytes of pinned host memory", bytes));
    return p;
  }
  static void release(void* p) { cudaFreeHost(p); }
};

// An array that grows on demand and keeps its memory between runs.
template <class T, class Memory>
class GrowingArray {
 public:
  GrowingArray() = default;
  GrowingArray(const GrowingArray&) = delete;
  GrowingArray& operator=(const GrowingArray&) = delete;
  ~GrowingArray() { Memory::release(p_); }
  // At least n elements; earlier contents are not kept.
  T* reserve(std::size_t n) {
    n = std::max<std::size_t>(n, 1);
    if (n <= size_) return p_;
    Memory::release(p_);
    p_ = nullptr, size_ = 0;  // stays empty if the allocation throws
    p_ = static_cast<T*>(Memory::allocate(n * sizeof(T)));
    size_ = n;
    return p_;
  }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
  std::size_t size_ = 0;
};

template <class T>
using DeviceArray = GrowingArray<T, DeviceMemory>;
template <class T>
using PinnedArray = GrowingArray<T, PinnedMemory>;

// What one device works from: its stream, its work ring and flags (pinned, read by the kernel)
// and its claim counter (device memory). Made on the device's host thread, with the device
// current.
struct DeviceFeed {
  int device;
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
  DeviceArray<unsigned long long> park_counters, park_tag, park_stats;
  DeviceArray<unsigned char> park_state;
  DeviceArray<std::int32_t> park_steps;
  DeviceArray<std::uint32_t> park_item;
  std::map<int, TwinLaunch> shapes;  // by kernel: an occupancy query costs tens of microseconds

  explicit DeviceFeed(int d) : device(d) {
    const std::string where = describe(device);
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), where);
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&poll, cudaStreamNonBlocking), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&began), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&ended), where);
    flags.reserve(2);
    claimed_seen.reserve(2);
    caps.reserve(2);
    claimed.reserve(1);
  }
  ~DeviceFeed() {
    if (began) cudaEventDestroy(began);
    if (ended) cudaEventDestroy(ended);
    if (poll) cudaStreamDestroy(poll);
    if (stream) cudaStreamDestroy(stream);
  }
  DeviceFeed(const DeviceFeed&) = delete;
  DeviceFeed& operator=(const DeviceFeed&) = delete;

  // Ready for a run that claims at most `claims` entries: the ring of `capacity` entries, the
  // feed open, no claims, the list (if any) on the device. Returns the sequence number of the
  // run's first claim. Entries left by earlier runs carry smaller sequence numbers than any of
  // this run's, which the kernel ignores, so the ring (megabytes) is cleared only when new or
  // when the 32-bit sequence number would wrap.
  std::uint64_t reset(std::size_t capacity, std::uint64_t claims,
                      std::span<const std::uint64_t> listed) {
    const std::string where = describe(device);
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
  // Ready for a run with parking: `capacity` empty slots of states of `word_bytes` words, and
  // the live cap.
  TwinParking reset_parking(std::size_t capacity, int parked_bytes, unsigned long long live_cap) {
    const std::string where = describe(device);
    TwinParking q;
    q.capacity = capacity;
    q.counters = park_counters.reserve(9);
    q.tag = park_tag.reserve(capacity);
    q.state = park_state.reserve(capacity * parked_bytes);
    q.steps = park_steps.reserve(capacity);
    q.item = park_item.reserve(capacity);
    ORRERY_CUDA_CHECK(cudaMemsetAsync(q.counters, 0, 9 * sizeof(unsigned long long), stream),
                      where);
    set_live_cap(q, 0, live_cap, stream);
    ORRERY_CUDA_CHECK(cudaMemsetAsync(q.tag, 0, capacity * sizeof(unsigned long long), stream),
                      where);
    if (const char* v = std::getenv("ORRERY_GPU_STATS"); v && std::string_view(v) != "host") {
      q.stats = park_stats.reserve(kTwinStats);
      ORRERY_CUDA_CHECK(
          cudaMemsetAsync(q.stats, 0, kTwinStats * sizeof(unsigned long long), stream), where);
    }
    return q;
  }
  // Copies a live cap to the kernel's counters through caps[k] (not reused while in flight).
  void set_live_cap(const TwinParking& q, int k, unsigned long long cap, cudaStream_t on) {
    caps.get()[k] = cap;
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(q.counters + 6, caps.get() + k, sizeof cap,
                                      cudaMemcpyHostToDevice, on),
                      describe(device));
  }
  // The device's progress so far (counters[7]), read while the kernel runs.
  unsigned long long progress(const TwinParking& q) {
    ORRERY_CUDA_CHECK(cudaMemcpyAsync(claimed_seen.get() + 1, q.counters + 7,
                                      sizeof(unsigned long long), cudaMemcpyDeviceToHost, poll),
                      describe(device));
    ORRERY_CUDA_CHECK(cudaStreamSynchronize(poll), describe(device));
    return claimed_seen.get()[1];
  }
  // The launch shape that fills the device with the kernel for these options.
  TwinLaunch shape(const DivergenceSetup& setup, Precision precision, bool exact) {
    const int key = ((setup.integrator * 3 + static_cast<int>(precision)) * 2 + exact) * 3 + setup.body;
    auto it = shapes.find(key);
    if (it == shapes.end())
      it = shapes.emplace(key, twin_launch_shape(setup, precision, exact, device)).first;
    return it->second;
  }
  void close() { std::atomic_ref<int>(flags.get()[0]).store(1, std::memory_order_release); }
};

// What one call leaves for the next: the pinned results and each device's feed. Pinning host
// pages costs about a millisecond per megabyte, which on four GPUs is a tenth of a device's
// share of the canonical map; a process that makes many maps (a benchmark, a zoom sequence)
// pays it once. One call at a time uses them; a concurrent call makes its own.
struct RunBuffers {
  PinnedArray<std::int32_t> results;  // result words (result_collector.hpp)
  std::map<int, std::unique_ptr<DeviceFeed>> feeds;  // made by each device's host thread
  // Host threads: slot i serves the call's i-th device, then a slice of the last copy.
  ThreadTeam team;
};

// Live pixels per thread while the devices' speeds are measured, and for how long: long enough
// for every warp to end several segments, short enough that the pixels started when the cap is
// raised have most of the run left.
constexpr double kMeasuringLivePerThread = 2;
constexpr double kMeasureFor = 0.02;  // seconds
// Speeds within this ratio are taken as equal: the equal deals stay as they are.
constexpr double kSpeedTolerance = 1.02;
// Pixels the calling thread looks at per sweep while the devices work (some 0.05 ms): it
// notices that the devices are done at most that late.
constexpr std::size_t kSweepAtMost = 65536;

// The devices' measured speeds, gathered from their host threads; the last to report moves the
// unstarted pixels (WorkPool::rebalance) and tells them all to raise their live caps.
class SpeedShare {
 public:
  SpeedShare(std::size_t devices, WorkPool& pool, bool move)
      : speeds_(devices, 0.0), pool_(pool), move_(move) {}
  // `progress` of 0: none measured.
  void report(std::size_t slot, double progress) {
    std::lock_guard<std::mutex> lock(mutex_);
    speeds_[slot] = progress;
    if (++reported_ < speeds_.size()) return;
    const auto [slowest, fastest] = std::minmax_element(speeds_.begin(), speeds_.end());
    if (move_ && *slowest > 0 && *fastest > kSpeedTolerance * *slowest)
      moved_ = pool_.rebalance(speeds_);
    decided_ = true;
  }
  bool decided() const { return decided_; }
  std::vector<double> speeds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return speeds_;
  }
  std::uint64_t moved() const { return moved_; }

 private:
  mutable std::mutex mutex_;
  std::vector<double> speeds_;
  std::size_t reported_ = 0;
  std::atomic<bool> decided_{false};
  std::uint64_t moved_ = 0;
  WorkPool& pool_;
  bool move_;
};

std::uint64_t next_power_of_two(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

}  // namespace

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why)
      *why =
          err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
              ? fmt::format("no CUDA driver or device on this machine ({})", cudaGetErrorName(err))
              : fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
    cudaGetLastError();
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device is visible";
  return n;
}

std::string device_name(int device) {
  // Asked at every run; cudaGetDeviceProperties takes about a millisecond.
  static std::mutex mutex;
  static std::map<int, std::string> names;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = names.find(device); it != names.end()) return it->second;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "unknown";
  return names[device] = prop.name;
}

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (options.gpu_segment < 0 || (options.gpu_segment & (options.gpu_segment - 1)) != 0)
    throw ParameterError("gpu_segment", std::to_string(options.gpu_segment), "0 or a power of two");
  if (!(options.gpu_live_per_thread >= 0))
    throw ParameterError("gpu_live_per_thread", fmt::format("{}", options.gpu_live_per_thread),
                         "a number above 0, or 0 for the default");
  if (!(options.gpu_device_share > 0 && options.gpu_device_share <= 1))
    throw ParameterError("gpu_device_share", fmt::format("{}", options.gpu_device_share),
                         "a fraction in (0, 1]");
  std::vector<int> devices = options.devices;
  if (devices.empty()) {
    devices.resize(static_cast<std::size_t>(device_count()));
    std::iota(devices.begin(), devices.end(), 0);
  }
  const auto width = static_cast<std::uint64_t>(setup.width);
  const std::uint64_t grid = width * static_cast<std::uint64_t>(setup.height);
  const bool listed = !pixels.empty();
  const std::uint64_t total = listed ? pixels.size() : grid;
  if (total >= (std::uint64_t{1} << 32))
    throw ParameterError("width/height", fmt::format("{} pixels", total),
                         "fewer than 2^32 pixels on the CUDA backend");
  std::vector<std::uint64_t> list;
  for (const auto& [j, k] : pixels) list.push_back(static_cast<std::uint64_t>(k) * width + j);

  // Never destroyed: the CUDA runtime may be gone before static destructors run.
  static std::mutex reuse_mutex;
  static auto* const reused = new RunBuffers;
  std::unique_lock<std::mutex> reuse(reuse_mutex, std::try_to_lock);
  std::unique_ptr<RunBuffers> own;
  RunBuffers& buffers = reuse.owns_lock() ? *reused : *(own = std::make_unique<RunBuffers>());
  for (int d : devices) buffers.feeds.try_emplace(d);  // filled by the device's thread

  // Results land here, written by the kernels.
  std::int32_t* results = buffers.results.reserve(total);
  // Several devices are dealt `gpu_device_share` of the map (default all of it) at the start in
  // equal stretches of the spread order (the same work within 0.02 % on the canonical map) and
  // share the rest as they free threads; a device that has started all it can takes the
  // unstarted end of another's deal. Both balance devices that run at different speeds.
  const std::uint64_t dealt =
      devices.size() > 1
          ? static_cast<std::uint64_t>(options.gpu_device_share * static_cast<double>(total))
          : 0;
  // Live pixels per thread, unless given: chosen by measurement on the canonical map
  // (bench/README.md). One H200: 8 → 0.485 s, 4 → 0.490 s, 2 → 0.495 s. Four, once each has its
  // whole deal in progress the devices run as one does (2 throughout: 0.126 s; 3: 0.133 s, as
  // the pixels started last hold the end).
  double live_per_thread = options.gpu_live_per_thread;
  if (live_per_thread == 0) live_per_thread = 8.0;
  WorkPool pool(total, !listed, setup.width, setup.height, setup.steps, results, devices.size(),
                dealt);

  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  std::vector<double> busy(devices.size(), 0.0), launched(devices.size(), 0.0),
      granted_first(devices.size(), 0.0), done(devices.size(), 0.0),
      set_up(devices.size(), 0.0), marked_at(devices.size(), 0.0),
      emptied(devices.size(), 0.0);
  std::vector<std::uint64_t> taken(devices.size(), 0);
  // Several devices share the map in proportion to their speeds, measured on each over the
  // first kMeasureFor of its run: a slower or busier device gets less of what is unstarted.
  const bool balancing = devices.size() > 1;
  SpeedShare speed(devices.size(), pool, options.gpu_balance);
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
    const std::string where = describe(d);
    DeviceFeed* feed = nullptr;
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), where);
      auto& made = buffers.feeds.at(d);
      if (!made) made = std::make_unique<DeviceFeed>(d);
      feed = made.get();
      TwinLaunch shape = feed->shape(setup, options.precision, options.exact_gpu);
      if (options.gpu_blocks > 0) shape.blocks = options.gpu_blocks;
      const std::uint64_t threads = std::uint64_t(shape.blocks) * shape.threads_per_block;
      threads_all += threads;
      // Entries written ahead of the claims: at the start every thread's first item, then four
      // polls' worth of what the device claims (at least kLeast), so that pixels leave the
      // shared pool late: by then their neighbours' counts order them best, and the device
      // that is free first takes them. The ring holds four times the most ever written ahead,
      // so an entry is overwritten only long after its thread has read it (the kernel checks,
      // see `overrun`).
      constexpr std::uint64_t kLeast = 4096;
      const std::uint64_t capacity = next_power_of_two(4 * (threads + kLeast));
      // Each thread's last claim finds the feed closed: at most one claim per item and thread.
      const std::uint64_t first_claim = feed->reset(capacity, total + threads, list);
      TwinParking parking;
      // The live caps: with several devices, first a lower one that keeps most of each deal
      // unstarted while the devices' speeds are measured, then the full one.
      const double n = static_cast<double>(threads);
      const double measuring = balancing ? kMeasuringLivePerThread : live_per_thread;
      const auto final_cap = static_cast<std::uint64_t>(std::ceil(std::min(
          live_per_thread * n,
          static_cast<double>(total) * (balancing ? 1.0 : options.gpu_device_share))));
      const auto first_cap = static_cast<std::uint64_t>(std::ceil(
          std::min({live_per_thread * n, measuring * n,
                    options.gpu_device_share * static_cast<double>(total) /
                        static_cast<double>(devices.size())})));
      if (options.gpu_segment > 0) {
        // At most every live pixel parked at once, and the live set exceeds its cap only by
        // threads that found the queue empty: twice that leaves every slot read long before
        // it is written again.
        const std::uint64_t most = std::max({first_cap, final_cap, threads});
        parking = feed->reset_parking(next_power_of_two(2 * (most + threads)),
                                      twin_parked_bytes(setup, options.precision), first_cap);
        parking.segment = static_cast<unsigned>(options.gpu_segment);
        parking.catch_up = options.gpu_catch_up;
      }
      bool measured = !balancing || options.gpu_segment == 0, raised = measured;
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
            emptied[slot] = since_start();
            return false;
          }
          for (std::size_t i = 0; i < n; ++i, ++granted)
            std::atomic_ref<std::uint64_t>(ring[(first_claim + granted) & (capacity - 1)])
                .store(((first_claim + granted + 1) << 32) | chunk[i], std::memory_order_release);
        }
        return true;
      };
      // Every thread's first entry is written before the launch: threads that find none poll
      // the host's memory, and 4 × 67 584 threads doing so delayed the whole run by
      // milliseconds. The pool reads the "not yet" marks, so they come first.
      set_up[slot] = since_start();
      mark_not_yet(slot);
      marked_at[slot] = since_start();
      bool open = grant(threads + kLeast, threads + kLeast);
      if (!open) feed->close();
      granted_first[slot] = since_start();
      ORRERY_CUDA_CHECK(cudaEventRecord(feed->began, feed->stream), where);
      launch_twin_kernel(setup, options.precision, options.exact_gpu,
                         TwinFeed{ring, capacity, first_claim, feed->flags.get(),
                                  feed->flags.get() + 1, feed->claimed.get(),
                                  listed ? feed->list.get() : nullptr, results, parking},
                         shape, feed->stream);
      ORRERY_CUDA_CHECK(cudaEventRecord(feed->ended, feed->stream), where);
      launched[slot] = since_start();
      std::uint64_t seen = threads;  // claims beyond every thread's first are completions
      while (open && !failed) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        ORRERY_CUDA_CHECK(
            cudaMemcpyAsync(feed->claimed_seen.get(), feed->claimed.get(),
                            sizeof(unsigned long long), cudaMemcpyDeviceToHost, feed->poll),
            where);
        ORRERY_CUDA_CHECK(cudaStreamSynchronize(feed->poll), where);
        const std::uint64_t claimed = feed->claimed_seen.get()[0];
        const std::uint64_t recent = claimed > seen ? claimed - seen : 0;
        seen = std::max(seen, claimed);
        if (!measured && since_start() - launched[slot] >= kMeasureFor) {
          speed.report(slot, static_cast<double>(feed->progress(parking)));
          measured = true;
        }
        if (!raised && speed.decided()) {
          feed->set_live_cap(parking, 1, final_cap, feed->poll);
          raised = true;
        }
        open = grant(claimed + std::clamp<std::uint64_t>(4 * recent, kLeast, capacity / 4),
                     claimed + kLeast);
        if (!open) feed->close();
      }
      if (!measured) speed.report(slot, 0);  // no measurement: nothing is moved
      if (failed) feed->close();
      ORRERY_CUDA_CHECK(cudaEventSynchronize(feed->ended),
                        fmt::format("{}: computing {} pixels", where, granted));
      done[slot] = since_start();
      taken[slot] = granted;
      if (std::atomic_ref<int>(feed->flags.get()[1]).load())
        throw RunError(
            fmt::format("{}: a work entry was overwritten before it was read "
                        "(ring of {} entries); this is a bug",
                        where, capacity));
      if (parking.stats) {  // diagnostics, on request
        unsigned long long stats[kTwinStats];
        ORRERY_CUDA_CHECK(cudaMemcpy(stats, parking.stats, sizeof stats, cudaMemcpyDeviceToHost),
                          where);
        std::string line = where + ":";
        for (int i = 0; i < kTwinStats; ++i)
          line += fmt::format(" {}={}", kTwinStatNames[i], stats[i]);
        std::fprintf(stderr, "%s\n", line.c_str());
      }
      float ms = 0;
      ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, feed->began, feed->ended), where);
      busy[slot] = ms * 1e-3;
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
  // The results' own memory, touched while the devices work (first-touch page faults on 5 MB
  // cost about a millisecond), and filled as pixels finish: every 2 ms the calling thread looks
  // at up to kSweepAtMost result words, copying the finished ones; what is left when the last
  // device is done is copied by the host threads together (finish, below). It reports progress
  // meanwhile and wakes the moment the last device is done.
  DivergenceCounts out;
  out.counts.resize(total);
  out.nonfinite.resize(total);
  ResultCollector collector(results, out);
  const bool host_stats = std::getenv("ORRERY_GPU_STATS") != nullptr;
  // Diagnostics (ORRERY_GPU_STATS): pixels done over time, swept every 0.1 ms.
  std::vector<std::pair<double, std::int64_t>> done_over_time;
  {
    auto reported = std::chrono::steady_clock::now();
    while (!team.wait_for(std::chrono::microseconds(host_stats ? 100 : 2000))) {
      collector.sweep(kSweepAtMost);
      if (host_stats) done_over_time.emplace_back(since_start(), collector.pixels_done());
      if (options.progress && std::chrono::steady_clock::now() - reported >
                                  std::chrono::milliseconds(250)) {
        reported = std::chrono::steady_clock::now();
        MapProgress p;
        p.pixels_total = static_cast<std::int64_t>(total);
        p.pixels_done = collector.pixels_done();
        p.pixel_steps = out.pixel_steps;
        p.seconds = since_start();
        options.progress(p);
      }
    }
  }
  for (auto& e : errors)
    if (e) {
      if (!own) reused->feeds.clear();  // a device in an unknown state starts afresh next time
      std::rethrow_exception(e);
    }

  const double all_done = since_start();
  // Most pixels of a device end in its last millisecond (the trajectories behind catch up):
  // the last copy is shared by the host threads, at least eight.
  collector.finish(std::max<std::size_t>(devices.size(), 8),
                   [&](std::size_t n, const std::function<void(std::size_t)>& job) {
                     team.start(n, job);
                     team.wait();
                   });
  if (host_stats) {  // diagnostics, on request: where the call's time went
    for (std::size_t i = 0; i < devices.size(); ++i)
      std::fprintf(stderr,
                   "%s: ms from the call: set up %.3f, marked %.3f, first entries %.3f, "
                   "launched %.3f, pool empty %.3f, done %.3f (kernel %.3f); %llu pixels\n",
                   describe(devices[i]).c_str(), 1e3 * set_up[i], 1e3 * marked_at[i],
                   1e3 * granted_first[i], 1e3 * launched[i],
                   1e3 * emptied[i], 1e3 * done[i], 1e3 * busy[i],
                   static_cast<unsigned long long>(taken[i]));
    // When the pixels left fell below multiples of the devices' threads: the end of the run.
    std::string tail;
    for (double k : {8.0, 4.0, 2.0, 1.0, 0.5, 0.25, 0.1, 0.01}) {
      const double below = k * static_cast<double>(threads_all);
      for (const auto& [t, n] : done_over_time)
        if (static_cast<double>(total) - static_cast<double>(n) < below) {
          tail += fmt::format(" {}T {:.3f}", k, 1e3 * t);
          break;
        }
    }
    std::fprintf(stderr, "host: ms when fewer pixels than k threads were left:%s\n", tail.c_str());
    std::string speeds;
    for (double v : speed.speeds()) speeds += fmt::format(" {:.0f}", v);
    std::fprintf(stderr,
                 "host: ms from the call: threads joined %.3f, results copied %.3f; speeds%s, "
                 "%llu pixels moved\n",
                 1e3 * all_done, 1e3 * since_start(), speeds.c_str(),
                 static_cast<unsigned long long>(speed.moved()));
  }
  out.info.backend = "cuda";
  out.info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(devices.size());
  out.info.device_seconds = *std::max_element(busy.begin(), busy.end());
  out.info.launched_seconds = *std::max_element(launched.begin(), launched.end());
  // Each device finds the pool empty at its next poll; the first to find it saw it happen.
  out.info.pool_empty_seconds = *std::min_element(emptied.begin(), emptied.end());
  out.info.device_done_seconds = done;
  for (std::uint64_t n : taken) out.info.device_pixels.push_back(static_cast<std::int64_t>(n));
  return out;
}

}  // namespace orrery::cuda
