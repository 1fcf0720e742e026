// SPDX-License-Identifier: MIT
// All GPUs of a host: one host thread and two streams per device. Tiles of the map's pixel
// order (tile_schedule.hpp) are handed out on demand, so a slower or busier device takes fewer;
// once counts come back, each new tile runs its expected-longest pixels first. Each device
// alternates two streams so that one tile's last pixels overlap the next tile's first. Counts
// land in pinned host memory; they do not depend on which device computed them, or when.
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

#include "../tile_schedule.hpp"
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
  DeviceArray() = default;
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
  DeviceArray(DeviceArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~DeviceArray() { cudaFree(p_); }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

// Pinned host memory, released with cudaFreeHost.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  explicit PinnedArray(std::size_t n) {
    ORRERY_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&p_),
                                    std::max<std::size_t>(n, 1) * sizeof(T), cudaHostAllocPortable),
                      fmt::format("allocating {} bytes of pinned host memory", n * sizeof(T)));
  }
  PinnedArray(PinnedArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  PinnedArray& operator=(PinnedArray&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~PinnedArray() { cudaFreeHost(p_); }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
};

// One of a device's two streams with the buffers of the tile it runs.
struct Lane {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  DeviceArray<std::uint64_t> list;
  DeviceArray<std::int32_t> counts;
  DeviceArray<std::uint8_t> nonfinite;
  DeviceArray<unsigned long long> claimed;
  PinnedArray<std::uint64_t> host_list;
  PinnedArray<std::int32_t> host_counts;
  PinnedArray<std::uint8_t> host_nonfinite;
  std::uint64_t first = 0, count = 0;  // the tile in flight, if count > 0

  Lane(int device, std::size_t capacity)
      : list(device, capacity), counts(device, capacity), nonfinite(device, capacity),
        claimed(device, 1), host_list(capacity), host_counts(capacity), host_nonfinite(capacity) {
    ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), describe(device));
    ORRERY_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), describe(device));
  }
  ~Lane() {
    if (done) cudaEventDestroy(done);
    if (stream) cudaStreamDestroy(stream);
  }
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;
};

}  // namespace

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
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
  const std::uint64_t stride = spreading_stride(grid);
  // Position q of the run's order: the q-th listed pixel, or the grid visited with the stride.
  auto pixel_at = [&](std::uint64_t q) -> std::uint64_t {
    if (listed) return static_cast<std::uint64_t>(pixels[q][1]) * width + pixels[q][0];
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(q) * stride) % grid);
  };

  // A tile fills a device at least once and at most twice: the second stream's tile then
  // keeps it busy while the first one's last pixels finish.
  std::uint64_t resident = 0;
  std::vector<TwinLaunch> shapes;
  for (int d : devices) {
    ORRERY_CUDA_CHECK(cudaSetDevice(d), describe(d));
    TwinLaunch shape = twin_launch_shape(options.precision, setup.body, options.exact_gpu, d);
    if (options.gpu_blocks > 0) shape.blocks = options.gpu_blocks;
    shapes.push_back(shape);
    resident = std::max<std::uint64_t>(resident, std::uint64_t(shape.blocks) * shape.threads_per_block);
  }
  const std::uint64_t largest = std::min<std::uint64_t>(total, 2 * resident);
  TileQueue queue(total, resident, largest, static_cast<int>(devices.size()));
  KnownCounts known(listed ? 1 : setup.width, listed ? 1 : setup.height);

  DivergenceCounts out;
  out.counts.assign(total, 0);
  out.nonfinite.assign(total, 0);
  std::atomic<std::int64_t> pixels_done{0}, steps_done{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  std::vector<double> busy(devices.size(), 0.0);
  std::mutex finished_mutex;
  std::condition_variable finished_cv;
  std::size_t finished = 0;
  const auto t0 = std::chrono::steady_clock::now();

  auto worker = [&](std::size_t slot) {
    const int d = devices[slot];
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), describe(d));
      Lane lanes[2] = {Lane(d, largest), Lane(d, largest)};
      cudaEvent_t began = nullptr, ended = nullptr;
      ORRERY_CUDA_CHECK(cudaEventCreate(&began), describe(d));
      ORRERY_CUDA_CHECK(cudaEventCreate(&ended), describe(d));
      bool started = false;
      // Waits for a lane's tile and files its counts under their pixels.
      auto collect = [&](Lane& lane) {
        if (lane.count == 0) return;
        ORRERY_CUDA_CHECK(cudaEventSynchronize(lane.done),
                          fmt::format("{}: computing positions [{}, {}) of the pixel order",
                                      describe(d), lane.first, lane.first + lane.count));
        std::int64_t steps = 0;
        for (std::uint64_t q = 0; q < lane.count; ++q) {
          const std::uint64_t at = listed ? lane.first + q : lane.host_list.get()[q];
          out.counts[at] = lane.host_counts.get()[q];
          out.nonfinite[at] = lane.host_nonfinite.get()[q];
          steps += lane.host_counts.get()[q];
          if (!listed) known.set(at, lane.host_counts.get()[q]);
        }
        if (!listed) known.mark_any();
        steps_done += steps;
        pixels_done += static_cast<std::int64_t>(lane.count);
        lane.count = 0;
      };
      for (int turn = 0; !failed; turn ^= 1) {
        Lane& lane = lanes[turn];
        collect(lane);
        std::uint64_t first = 0, count = 0;
        if (!queue.next(first, count)) break;
        std::uint64_t* list = lane.host_list.get();
        for (std::uint64_t q = 0; q < count; ++q) list[q] = pixel_at(first + q);
        if (!listed && known.any())
          order_longest_first({list, count}, known, setup.steps);
        const std::string what =
            fmt::format("{}: positions [{}, {})", describe(d), first, first + count);
        if (!started) {
          ORRERY_CUDA_CHECK(cudaEventRecord(began, lane.stream), what);
          started = true;
        }
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(lane.list.get(), list, count * sizeof(std::uint64_t),
                                          cudaMemcpyHostToDevice, lane.stream), what);
        ORRERY_CUDA_CHECK(cudaMemsetAsync(lane.claimed.get(), 0, sizeof(unsigned long long),
                                          lane.stream), what);
        launch_twin_kernel(setup, options.precision, options.exact_gpu,
                           TwinTile{count, lane.list.get(), lane.counts.get(),
                                    lane.nonfinite.get(), lane.claimed.get()},
                           shapes[slot], lane.stream);
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(lane.host_counts.get(), lane.counts.get(),
                                          count * sizeof(std::int32_t), cudaMemcpyDeviceToHost,
                                          lane.stream), what);
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(lane.host_nonfinite.get(), lane.nonfinite.get(), count,
                                          cudaMemcpyDeviceToHost, lane.stream), what);
        ORRERY_CUDA_CHECK(cudaEventRecord(lane.done, lane.stream), what);
        lane.first = first;
        lane.count = count;
      }
      collect(lanes[0]);
      collect(lanes[1]);
      if (started) {
        ORRERY_CUDA_CHECK(cudaEventRecord(ended, lanes[0].stream), describe(d));
        ORRERY_CUDA_CHECK(cudaEventSynchronize(ended), describe(d));
        float ms = 0;
        ORRERY_CUDA_CHECK(cudaEventElapsedTime(&ms, began, ended), describe(d));
        busy[slot] = ms * 1e-3;
      }
      cudaEventDestroy(began);
      cudaEventDestroy(ended);
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
      MapProgress p;
      p.pixels_done = pixels_done.load();
      p.pixels_total = static_cast<std::int64_t>(total);
      p.pixel_steps = steps_done.load();
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      lock.unlock();
      options.progress(p);
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  out.pixel_steps = steps_done.load();
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = "cuda";
  out.info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(devices.size());
  out.info.device_seconds = *std::max_element(busy.begin(), busy.end());
  return out;
}

}  // namespace orrery::cuda
