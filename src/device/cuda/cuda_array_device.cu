// SPDX-License-Identifier: MIT
// The fused array update on a CUDA device: out = y + h Σ_j c_j k_j, element by element, in the
// order of the CPU's HostArrayDevice (s = c_first·k_first, or k_first for c = 1; s ← fma(c_j,
// k_j, s); out = fma(h, s, y)).
#include "device/cuda/cuda_array_device.hpp"

#include <string>

#include "device/cuda/cuda_check.hpp"
#include "device/cuda/memory.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/core/error.hpp"

namespace orrery::cuda {

namespace {

constexpr int kThreads = 256;

// Passed by value as a kernel argument (at most 1 KiB for double, within the 4 KiB allowed).
template <class Real>
struct Terms {
  const Real* k[kMaxCombineTerms];
  Real c[kMaxCombineTerms];
  int m;
  bool first_is_one;
};

template <class Real>
__global__ void combine_kernel(Real* out, const Real* y, Real h, Terms<Real> t, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    if (t.m == 0) {
      out[i] = y[i];
      continue;
    }
    Real s = t.first_is_one ? t.k[0][i] : t.c[0] * t.k[0][i];
    for (int j = 1; j < t.m; ++j) s = fma(t.c[j], t.k[j][i], s);
    out[i] = fma(h, s, y[i]);
  }
}

// Makes `device` current for the caller's scope and puts the previous one back.
class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    cudaGetDevice(&previous_);
    ORRERY_CUDA_CHECK(cudaSetDevice(device), "selecting the array device");
  }
  ~CurrentDevice() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

}  // namespace

template <class Real>
CudaArrayDevice<Real>::CudaArrayDevice(int device) : device_(device) {
  CurrentDevice current(device_);
  ORRERY_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                    "creating the array device's stream");
}

template <class Real>
CudaArrayDevice<Real>::~CudaArrayDevice() {
  if (stream_) cudaStreamDestroy(stream_);
  PinnedMemory::release(flag_);
}

template <class Real>
std::string CudaArrayDevice<Real>::name() const {
  return to_string(Backend::cuda) + ":" + std::to_string(device_);
}

template <class Real>
DeviceBuffer<Real> CudaArrayDevice<Real>::allocate(std::size_t n) {
  CurrentDevice current(device_);
  auto* p = static_cast<Real*>(DeviceMemory::allocate(n > 0 ? n * sizeof(Real) : sizeof(Real)));
  ORRERY_CUDA_CHECK(cudaMemsetAsync(p, 0, n * sizeof(Real), stream_), "zeroing a device array");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "zeroing a device array");
  const int device = device_;
  return DeviceBuffer<Real>(p, n, [device](Real* q) {
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(device);
    DeviceMemory::release(q);
    cudaSetDevice(previous);
  });
}

template <class Real>
void CudaArrayDevice<Real>::copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) {
  if (host.size() > dst.size()) throw RunError("copy_to_device: more values than the array holds");
  CurrentDevice current(device_);
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(dst.data(), host.data(), host.size() * sizeof(Real),
                                    cudaMemcpyHostToDevice, stream_),
                    "copying to the device");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "copying to the device");
}

template <class Real>
void CudaArrayDevice<Real>::copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) {
  if (host.size() > src.size()) throw RunError("copy_to_host: more values than the array holds");
  CurrentDevice current(device_);
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(host.data(), src.data(), host.size() * sizeof(Real),
                                    cudaMemcpyDeviceToHost, stream_),
                    "copying from the device");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "copying from the device");
}

template <class Real>
void CudaArrayDevice<Real>::copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) {
  CurrentDevice current(device_);
  ORRERY_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(Real),
                                    cudaMemcpyDeviceToDevice, stream_),
                    "copying on the device");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "copying on the device");
}

template <class Real>
void CudaArrayDevice<Real>::combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
                                    std::span<const Real> c,
                                    std::span<const DeviceBuffer<Real>* const> k) {
  Terms<Real> t{};
  for (std::size_t j = 0; j < c.size(); ++j) {
    if (c[j] == Real(0)) continue;
    if (t.m == kMaxCombineTerms)
      throw RunError("combine: more than " + std::to_string(kMaxCombineTerms) +
                     " nonzero coefficients");
    t.k[t.m] = k[j]->data();
    t.c[t.m] = c[j];
    ++t.m;
  }
  t.first_is_one = t.m > 0 && t.c[0] == Real(1);
  const std::size_t n = y.size();
  if (n == 0) return;
  CurrentDevice current(device_);
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + kThreads - 1) / kThreads, 65535));
  combine_kernel<Real><<<blocks, kThreads, 0, stream_>>>(out.data(), y.data(), h, t, n);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the array update");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "the array update");
}

template <class Real>
__global__ void flag_nonfinite(const Real* v, std::size_t n, int* flag) {
  for (std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * kThreads)
    if (!isfinite(v[i])) *flag = 1;
}

template <class Real>
bool CudaArrayDevice<Real>::all_finite(const DeviceBuffer<Real>& b) {
  const std::size_t n = b.size();
  if (n == 0) return true;
  CurrentDevice current(device_);
  if (!flag_) flag_ = static_cast<int*>(PinnedMemory::allocate(sizeof(int)));
  *flag_ = 0;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + kThreads - 1) / kThreads, 4096));
  flag_nonfinite<Real><<<blocks, kThreads, 0, stream_>>>(b.data(), n, flag_);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the finiteness check");
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream_), "the finiteness check");
  return *flag_ == 0;
}

template class CudaArrayDevice<float>;
template class CudaArrayDevice<double>;

}  // namespace orrery::cuda
