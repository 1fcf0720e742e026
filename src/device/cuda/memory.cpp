// SPDX-License-Identifier: MIT
#include "device/cuda/memory.hpp"

#include <cuda_runtime.h>

#include <fmt/format.h>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/device_info.hpp"
#include "orrery/core/error.hpp"

namespace orrery::cuda {

void* DeviceMemory::allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError();
    int device = 0;
    cudaGetDevice(&device);
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw RunError(fmt::format("{}: out of device memory: asked for {} bytes, {} of {} free ({})",
                               describe_device(device), bytes, free_bytes, total_bytes,
                               cudaGetErrorString(err)));
  }
  return p;
}

void DeviceMemory::release(void* p) { cudaFree(p); }

void* PinnedMemory::allocate(std::size_t bytes) {
  void* p = nullptr;
  ORRERY_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
                    fmt::format("allocating {} bytes of pinned host memory", bytes));
  return p;
}

void PinnedMemory::release(void* p) { cudaFreeHost(p); }

}  // namespace orrery::cuda
