// SPDX-License-Identifier: MIT
// All GPUs of a host: one host thread and two streams per device. The map's pixels are taken in
// a fixed order that spreads every range evenly over the map, cut into tiles that are handed
// out on demand (largest first, shrinking towards the end), so a slower or busier device simply
// takes fewer tiles. Each device alternates two streams so that one tile's last pixels overlap
// the next tile's start. Counts land in pinned host memory; they do not depend on which device
// computed them or in what order.
#include "divergence_map_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "orrery/core/error.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

// Pinned host memory, released with cudaFreeHost.
template <class T>
class PinnedArray {
 public:
  explicit PinnedArray(std::size_t n) : n_(n) {
    ORRERY_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&p_), std::max<std::size_t>(n, 1) * sizeof(T),
                                    cudaHostAllocPortable),
                      fmt::format("allocating {} bytes of pinned host memory", n * sizeof(T)));
  }
  ~PinnedArray() { cudaFreeHost(p_); }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  T* data() { return p_; }
  T& operator[](std::size_t i) { return p_[i]; }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

std::uint64_t gcd(std::uint64_t a, std::uint64_t b) { return b == 0 ? a : gcd(b, a % b); }

// A stride near the golden section of the pixel count, coprime with it: consecutive positions
// then fall far apart on the map and every range samples it evenly.
std::uint64_t spreading_stride(std::uint64_t pixels) {
  if (pixels < 3) return 1;
  auto s = static_cast<std::uint64_t>(0.6180339887498949 * static_cast<double>(pixels));
  while (gcd(s, pixels) != 1) ++s;
  return s;
}

// Tiles on demand, guided self-scheduling: each is about remaining/(2·devices), between one
// that fills a device twice over and the size of the devices' buffers.
class TileQueue {
 public:
  TileQueue(std::uint64_t total, std::uint64_t min_tile, std::uint64_t max_tile, int devices)
      : total_(total), min_(min_tile), max_(max_tile), devices_(devices) {}

  bool next(std::uint64_t& first, std::uint64_t& count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (given_ >= total_) return false;
    const std::uint64_t remaining = total_ - given_;
    const std::uint64_t guided = remaining / (2 * static_cast<std::uint64_t>(devices_));
    count = std::min(remaining, std::clamp(guided, min_, max_));
    first = given_;
    given_ += count;
    return true;
  }

 private:
  std::mutex mutex_;
  std::uint64_t total_, min_, max_, given_ = 0;
  int devices_;
};

struct DeviceBuffers {
  int device = -1;
  std::int32_t* counts = nullptr;
  std::uint8_t* nonfinite = nullptr;
  unsigned long long* claimed = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  std::uint64_t first = 0, count = 0;  // the tile in flight, if count > 0

  ~DeviceBuffers() {
    if (device < 0) return;
    cudaSetDevice(device);
    cudaFree(counts);
    cudaFree(nonfinite);
    cudaFree(claimed);
    if (done) cudaEventDestroy(done);
    if (stream) cudaStreamDestroy(stream);
  }
};

std::string describe(int device) { return fmt::format("device {} ({})", device, device_name(device)); }

void* device_alloc(int device, std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes);
  if (err != cudaSuccess) {
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw RunError(fmt::format("{}: out of device memory: asked for {} bytes, {} of {} free ({})",
                               describe(device), bytes, free_bytes, total_bytes,
                               cudaGetErrorString(err)));
  }
  return p;
}

}  // namespace

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
    cudaGetLastError();  // clear the sticky state of this query
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
  const std::uint64_t grid = static_cast<std::uint64_t>(setup.width) * setup.height;
  if (grid >= (std::uint64_t{1} << 32))
    throw ParameterError("width/height", fmt::format("{} pixels", grid),
                         "fewer than 2^32 pixels on the CUDA backend");
  std::vector<std::uint64_t> listed;
  for (const auto& [j, k] : pixels)
    listed.push_back(static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(setup.width) + j);
  const std::uint64_t total = listed.empty() ? grid : listed.size();
  const std::uint64_t stride = spreading_stride(grid);

  PinnedArray<std::int32_t> counts(total);
  PinnedArray<std::uint8_t> nonfinite(total);

  // The smallest useful tile fills a device twice; the largest is a device's fair share.
  std::uint64_t min_tile = 0;
  for (int d : devices) {
    ORRERY_CUDA_CHECK(cudaSetDevice(d), describe(d));
    const TwinLaunch shape = twin_launch_shape(options.precision, setup.body, options.exact_gpu, d);
    min_tile = std::max<std::uint64_t>(min_tile, 2ull * shape.blocks * shape.threads_per_block);
  }
  const std::uint64_t max_tile =
      std::min(total, std::max(min_tile, total / (2 * devices.size()) + 1));
  TileQueue queue(total, std::min(min_tile, max_tile), max_tile, static_cast<int>(devices.size()));
  std::atomic<std::int64_t> pixels_done{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(devices.size());
  const auto t0 = std::chrono::steady_clock::now();

  auto worker = [&](std::size_t slot) {
    const int d = devices[slot];
    try {
      ORRERY_CUDA_CHECK(cudaSetDevice(d), describe(d));
      TwinLaunch shape = twin_launch_shape(options.precision, setup.body, options.exact_gpu, d);
      if (options.gpu_blocks > 0) shape.blocks = options.gpu_blocks;
      const std::uint64_t capacity = max_tile;
      std::uint64_t* list = nullptr;
      if (!listed.empty()) {
        list = static_cast<std::uint64_t*>(device_alloc(d, listed.size() * sizeof(std::uint64_t)));
        ORRERY_CUDA_CHECK(cudaMemcpy(list, listed.data(), listed.size() * sizeof(std::uint64_t),
                                     cudaMemcpyHostToDevice),
                          describe(d));
      }
      struct ListRelease {
        std::uint64_t* p;
        ~ListRelease() { cudaFree(p); }
      } release_list{list};
      DeviceBuffers lanes[2];
      for (auto& b : lanes) {
        b.device = d;
        b.counts = static_cast<std::int32_t*>(device_alloc(d, capacity * sizeof(std::int32_t)));
        b.nonfinite = static_cast<std::uint8_t*>(device_alloc(d, capacity));
        b.claimed = static_cast<unsigned long long*>(device_alloc(d, sizeof(unsigned long long)));
        ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking), describe(d));
        ORRERY_CUDA_CHECK(cudaEventCreateWithFlags(&b.done, cudaEventDisableTiming), describe(d));
      }
      auto finish = [&](DeviceBuffers& b) {
        if (b.count == 0) return;
        ORRERY_CUDA_CHECK(cudaEventSynchronize(b.done),
                          fmt::format("{}: computing positions [{}, {}) of the pixel order",
                                      describe(d), b.first, b.first + b.count));
        pixels_done += static_cast<std::int64_t>(b.count);
        b.count = 0;
      };
      for (int turn = 0; !failed; turn ^= 1) {
        DeviceBuffers& b = lanes[turn];
        finish(b);
        std::uint64_t first = 0, count = 0;
        if (!queue.next(first, count)) break;
        TwinTile tile{first, count, stride, grid, list, b.counts, b.nonfinite, b.claimed};
        const std::string what = fmt::format("{}: positions [{}, {})", describe(d), first, first + count);
        ORRERY_CUDA_CHECK(cudaMemsetAsync(b.claimed, 0, sizeof(unsigned long long), b.stream), what);
        launch_twin_kernel(setup, options.precision, options.exact_gpu, tile, shape, b.stream);
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(counts.data() + first, b.counts, count * sizeof(std::int32_t),
                                          cudaMemcpyDeviceToHost, b.stream), what);
        ORRERY_CUDA_CHECK(cudaMemcpyAsync(nonfinite.data() + first, b.nonfinite, count,
                                          cudaMemcpyDeviceToHost, b.stream), what);
        ORRERY_CUDA_CHECK(cudaEventRecord(b.done, b.stream), what);
        b.first = first;
        b.count = count;
      }
      finish(lanes[0]);
      finish(lanes[1]);
    } catch (...) {
      errors[slot] = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < devices.size(); ++i) threads.emplace_back(worker, i);
  // The calling thread reports progress while the devices work.
  while (pixels_done.load() < static_cast<std::int64_t>(total) && !failed) {
    if (options.progress) {
      MapProgress p;
      p.pixels_done = pixels_done.load();
      p.pixels_total = static_cast<std::int64_t>(total);
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      options.progress(p);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  DivergenceCounts out;
  out.counts.resize(total);
  out.nonfinite.resize(total);
  for (std::uint64_t q = 0; q < total; ++q) {
    const std::uint64_t at = listed.empty() ? (q * stride) % grid : q;  // back to map order
    out.counts[at] = counts[q];
    out.nonfinite[at] = nonfinite[q];
  }
  for (auto c : out.counts) out.pixel_steps += c;
  for (auto f : out.nonfinite) out.nonfinite_pixels += f;
  out.info.backend = "cuda";
  out.info.kernel = device_name(devices.front()) + (options.exact_gpu ? " (exact)" : "");
  out.info.threads = static_cast<int>(devices.size());
  return out;
}

}  // namespace orrery::cuda
