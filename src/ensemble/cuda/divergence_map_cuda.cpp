// SPDX-License-Identifier: MIT
// All GPUs of a host: one host thread, one stream and one persistent kernel launch per device.
// Each host thread keeps its device's work ring (pinned host memory the kernel reads) a little
// ahead of what the device has claimed, taking pixels from one pool shared by all devices
// (work_pool.hpp), so a slower or busier device simply takes fewer and all finish together.
// Counts are written by the devices straight into pinned host memory; they do not depend on
// which device computed them, or when.
#include "divergence_map_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "../work_pool.hpp"
#include "cuda_check.hpp"
#include "orrery/core/error.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

std::string describe(int device) {
  return fmt::format("device {} ({})", device, device_name(device));
}

// Device memory, released with cudaFree; out-of-memory names the request and what is free.
template <class T>
class DeviceArray {
 public:
  DeviceArray(int device, std::size_t n) {
    const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
    const cudaError_t err = cudaMalloc(reinterpret_cast<void**>(&p_), bytes);
    if (err != cudaSuccess) {
      cudaGetLastError();
      std::size_t free_bytes = 0, total_bytes = 0;
      cudaMemGetInfo(&free_bytes, &total_bytes);
      throw RunError(fmt::format("{}: out of device memory: asked for {} bytes, {} of {} free ({})",
                                 describe(device), bytes, free_bytes, total_bytes,
                                 cudaGetErrorString(err)));
    }
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(p_); }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

// Pinned host memory, released with cudaFreeHost.
template <class T>
class PinnedArray {
 public:
  // Pinned, visible to every device (portable) and addressable from kernels (mapped).
  explicit PinnedArray(std::size_t n) {
    ORRERY_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&p_),
                                    std::max<std::size_t>(n, 1) * sizeof(T),
                                    cudaHostAllocPortable | cudaHostAllocMapped),
                      fmt::format("allocating {} bytes of pinned host memory", n * sizeof(T)));
  }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  ~PinnedArray() { cudaFreeHost(p_); }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

// What one device works from: its stream, its work ring and flags (pinned, read by the kernel)
// and its claim counter (device memory).
struct DeviceFeed {
  cudaStream_t stream = nullptr;  // the kernel
  cudaStream_t poll = nullptr;    // reading the claim counter while the kernel runs
  cudaEvent_t began = nullptr, ended = nullptr;
  PinnedArray<std::uint64_t> ring;
  PinnedArray<int> flags;  // [0] closed, [1] overrun
  PinnedArray<unsigned long long> claimed_seen;
  DeviceArray<unsigned long long> claimed;
  DeviceArray<std::uint64_t> list;

  DeviceFeed(int device, std::size_t capacity, std::span<const std::uint64_t> listed)
      : ring(capacity), flags(2), claimed_seen(1), claimed(device, 1), list(device, listed.size()) {
    const std::string where = describe(device);
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), where);
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&poll, cudaStreamNonBlocking), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&began), where);
    ORRERY_CUDA_CHECK(cudaEventCreate(&ended), where);
    std::fill(ring.get(), ring.get() + capacity, 0);
    flags.get()[0] = flags.get()[1] = 0;
    ORRERY_CUDA_CHECK(cudaMemset(claimed.get(), 0, sizeof(unsigned long long)), where);
    if (!listed.empty())
      ORRERY_CUDA_CHECK(cudaMemcpy(list.get(), listed.data(), listed.size() * sizeof(std::uint64_t),
                                   cudaMemcpyHostToDevice),
                        where);
  }
  ~DeviceFeed() {
    if (began) cudaEventDestroy(began);
    if (ended) cudaEventDestroy(ended);
    if (poll) cudaStreamDestroy(poll);
    if (stream) cudaStreamDestroy(stream);
  }
  DeviceFeed(const DeviceFeed&) = delete;
  DeviceFeed& operator=(const DeviceFeed&) = delete;
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
      *why = err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
                 ? fmt::format("no CUDA driver or device on this machine ({})",
                               cudaGetErrorName(err))
                 : fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
    cudaGetLastError();
    return 0;
  }
  if (n == 0 && why) *why = "no CUDA device is visible";
  return n;
}

std::string device_name(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "unknown";
  return prop.name;
}

DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options) {
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

  // Results land here, written by the kernels; −1 marks "not yet" for the work pool.
  PinnedArray<std::int32_t> counts(total);
  PinnedArray<std::uint8_t> nonfinite(total);
  std::fill(counts.get(), counts.get() + total, -1);
  std::fill(nonfinite.get(), nonfinite.get() + total, 0);
  WorkPool pool(total, !listed, setup.width, setup.height, setup.steps, counts.get());

  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  std::vector<double> busy(devices.size(), 0.0);
  std::mutex finished_mutex;
  std::condition_variable finished_cv;
  std::size_t finished = 0;
  const auto t0 = std::chrono::steady_clock::now();

  auto worker = [&](std::size_t slot) {
    const int d = devices[slot];
    const std::string where = describe(d);
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), where);
      TwinLaunch shape = twin_launch_shape(options.precision, setup.body, options.exact_gpu, d);
      if (options.gpu_blocks > 0) shape.blocks = options.gpu_blocks;
      const std::uint64_t threads = std::uint64_t(shape.blocks) * shape.threads_per_block;
      // Entries written ahead of the claims: every thread's next item plus a few milliseconds
      // of work (the host polls every 0.1 ms). Little, so that pixels are taken from the pool
      // late, when their neighbours' counts order them best. The ring holds four times that,
      // so an entry is overwritten only long after its thread has read it (the kernel checks,
      // see `overrun`).
      const std::uint64_t ahead = threads + 8192;
      const std::uint64_t capacity = next_power_of_two(4 * ahead);
      DeviceFeed feed(d, capacity, list);
      std::uint64_t* ring = feed.ring.get();
      std::uint64_t granted = 0;
      std::vector<std::uint64_t> chunk(4096);
      // Writes entries up to `target` claims ahead; false once the pool is empty.
      auto grant = [&](std::uint64_t claimed) {
        const std::uint64_t target = claimed + ahead;
        while (granted < target) {
          const std::size_t n = pool.take({chunk.data(), std::min<std::uint64_t>(chunk.size(), target - granted)});
          if (n == 0) return false;
          for (std::size_t i = 0; i < n; ++i, ++granted)
            std::atomic_ref<std::uint64_t>(ring[granted % capacity])
                .store(((granted + 1) << 32) | chunk[i], std::memory_order_release);
        }
        return true;
      };
      bool open = grant(0);
      if (!open) std::atomic_ref<int>(feed.flags.get()[0]).store(1, std::memory_order_release);
      ORRERY_CUDA_CHECK(cudaEventRecord(feed.began, feed.stream), where);
      launch_twin_kernel(setup, options.precision, options.exact_gpu,
                         TwinFeed{ring, capacity, feed.flags.get(), feed.flags.get() + 1,
                                  feed.claimed.get(), listed ? feed.list.get() : nullptr,
                                  counts.get(), nonfinite.get()},
                         shape, feed.stream);
      ORRERY_CUDA_CHECK(cudaEventRecord(feed.ended, feed.stream), where);
      while (open && !failed) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(feed.claimed_seen.get(), feed.claimed.get(),
                                          sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                          feed.poll),
                          where);
        ORRERY_CUDA_CHECK(cudaStreamSynchronize(feed.poll), where);
        open = grant(feed.claimed_seen.get()[0]);
        if (!open) std::atomic_ref<int>(feed.flags.get()[0]).store(1, std::memory_order_release);
      }
      if (failed) std::atomic_ref<int>(feed.flags.get()[0]).store(1, std::memory_order_release);
      ORRERY_CUDA_CHECK(cudaEventSynchronize(feed.ended),
                        fmt::format("{}: computing {} pixels", where, granted));
      if (std::atomic_ref<int>(feed.flags.get()[1]).load())
        throw RunError(fmt::format("{}: a work entry was overwritten before it was read "
                                   "(ring of {} entries); this is a bug",
                                   where, capacity));
      float ms = 0;
      ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, feed.began, feed.ended), where);
      busy[slot] = ms * 1e-3;
    } catch (...) {
      errors[slot] = std::current_exception();
      failed = true;
    }
    std::lock_guard<std::mutex> lock(finished_mutex);
    ++finished;
    finished_cv.notify_one();
  };

  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < devices.size(); ++i) threads.emplace_back(worker, i);
  // The calling thread reports progress while the devices work and wakes the moment the last
  // device is done.
  {
    std::unique_lock<std::mutex> lock(finished_mutex);
    while (!finished_cv.wait_for(lock, std::chrono::milliseconds(250),
                                 [&] { return finished == devices.size(); })) {
      if (!options.progress) continue;
      lock.unlock();
      MapProgress p;
      p.pixels_total = static_cast<std::int64_t>(total);
      for (std::uint64_t i = 0; i < total; ++i) {
        const std::int32_t c =
            std::atomic_ref<std::int32_t>(counts.get()[i]).load(std::memory_order_relaxed);
        if (c >= 0) ++p.pixels_done, p.pixel_steps += c;
      }
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      options.progress(p);
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  DivergenceCounts out;
  out.counts.assign(counts.get(), counts.get() + total);
  out.nonfinite.assign(nonfinite.get(), nonfinite.get() + total);
  for (auto c : out.counts) {
    if (c < 0) throw RunError("a pixel was never computed; this is a bug");
    out.pixel_steps += c;
  }
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = "cuda";
  out.info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(devices.size());
  out.info.device_seconds = *std::max_element(busy.begin(), busy.end());
  return out;
}

}  // namespace orrery::cuda
