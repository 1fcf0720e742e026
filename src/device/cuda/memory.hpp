// SPDX-License-Identifier: MIT
// Memory for GPU code: device memory whose exhaustion is reported with the request and what is
// free, pinned host memory that every device can address, and an array of either that grows on
// demand and keeps its memory between runs (pinning or allocating costs far more than reusing).
// No fmt here, so that .cu files may include it.
#pragma once

#include <algorithm>
#include <cstddef>

namespace orrery::cuda {

// Device memory of the current device. An allocation that fails throws RunError naming the
// device, the bytes asked for and the bytes free.
struct DeviceMemory {
  static void* allocate(std::size_t bytes);
  static void release(void* p);
};

// Pinned host memory, visible to every device (portable) and addressable from kernels (mapped).
struct PinnedMemory {
  static void* allocate(std::size_t bytes);
  static void release(void* p);
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

}  // namespace orrery::cuda
