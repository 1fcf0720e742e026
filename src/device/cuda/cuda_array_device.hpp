// SPDX-License-Identifier: MIT
// Arrays in the memory of one CUDA device and the fused array update as a kernel, so a
// simulation on a CUDA engine keeps its particles on the GPU between steps: only snapshots and
// diagnostics copy out. `combine` computes every element with the CPU's operations in the
// CPU's order (device/array_device.hpp; explicit fused multiply-adds, --fmad=false), so its bits
// equal HostArrayDevice's. float and double. (No fmt here: .cu files include it.)
#pragma once

#include <cuda_runtime.h>

#include "orrery/device/array_device.hpp"

namespace orrery::cuda {

template <class Real>
class CudaArrayDevice final : public ArrayDevice<Real> {
 public:
  explicit CudaArrayDevice(int device);
  ~CudaArrayDevice() override;
  CudaArrayDevice(const CudaArrayDevice&) = delete;
  CudaArrayDevice& operator=(const CudaArrayDevice&) = delete;

  std::string name() const override;  // "cuda:0"
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }

  DeviceBuffer<Real> allocate(std::size_t n) override;
  void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) override;
  void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) override;
  void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) override;
  void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
               std::span<const Real> c,
               std::span<const DeviceBuffer<Real>* const> k) override;
  bool all_finite(const DeviceBuffer<Real>& b) override;

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
  int* flag_ = nullptr;  // pinned, written by the finiteness check
};

}  // namespace orrery::cuda
