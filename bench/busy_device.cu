// SPDX-License-Identifier: MIT
// A device shared with another job, for the balancing benchmark: blocks of fp64 work that run on
// a stream of their own until released.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace orrery::bench {

namespace {

__global__ void spin(const volatile int* stop, double* out) {
  double a = threadIdx.x * 1e-3, b = 1.0 - 1e-9;
  while (!*stop)
    for (int i = 0; i < 4096; ++i) a = fma(a, b, 1e-9);
  if (a == 42.0) out[0] = a;  // keeps the work alive
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

// Starts `blocks` blocks of 256 threads on `device` that keep its fp64 units busy until the
// returned function is called (which waits for them to leave).
class BusyDevice {
 public:
  BusyDevice(int device, int blocks) : device_(device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "stream");
    check(cudaMalloc(&stop_, 2 * sizeof(double)), "cudaMalloc");
    check(cudaMemsetAsync(stop_, 0, sizeof(int), stream_), "memset");
    spin<<<blocks, 256, 0, stream_>>>(stop_, reinterpret_cast<double*>(stop_ + 2));
    check(cudaGetLastError(), "launching the busy kernel");
  }
  ~BusyDevice() {
    cudaSetDevice(device_);
    const int one = 1;
    cudaMemcpy(stop_, &one, sizeof one, cudaMemcpyHostToDevice);  // another stream: not queued
    cudaStreamSynchronize(stream_);
    cudaFree(stop_);
    cudaStreamDestroy(stream_);
  }
  BusyDevice(const BusyDevice&) = delete;
  BusyDevice& operator=(const BusyDevice&) = delete;

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
  int* stop_ = nullptr;
};

void* occupy_device(int device, int blocks) { return new BusyDevice(device, blocks); }
void release_device(void* busy) { delete static_cast<BusyDevice*>(busy); }

}  // namespace orrery::bench
