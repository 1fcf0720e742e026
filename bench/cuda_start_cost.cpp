// SPDX-License-Identifier: MIT
// What a process pays the CUDA driver before its first kernel, and at its end, measured in a
// program of its own (no orrery code): cuInit, the first device's primary context, a first
// pinned and device allocation, a first (empty) kernel launch, and the context's release. The
// floor under `orrery map --timings`' "device" and "release" phases (bench/README.md, "The map
// end to end"). Prints one JSON line per run; run it a few times, as a process each.
//   orrery_cuda_start_cost
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int main() {
  const double t0 = now();
  if (cuInit(0) != CUDA_SUCCESS) {
    std::fprintf(stderr, "orrery_cuda_start_cost: cuInit failed (no driver or device)\n");
    return 1;
  }
  const double t1 = now();
  if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    std::fprintf(stderr, "orrery_cuda_start_cost: no context on device 0\n");
    return 1;
  }
  const double t2 = now();
  void* host = nullptr;
  void* device = nullptr;
  cudaMallocHost(&host, 4 << 20);
  cudaMalloc(&device, 64 << 20);
  const double t3 = now();
  cudaMemsetAsync(device, 0, 64);  // a first piece of work on the stream
  cudaDeviceSynchronize();
  const double t4 = now();
  cudaFreeHost(host);
  cudaFree(device);
  cudaDeviceReset();
  const double t5 = now();
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf(
      "{\"bench\": \"cuda-start-cost\", \"device\": \"%s\", \"cuinit_s\": %.4f, "
      "\"context_s\": %.4f, \"first_allocations_s\": %.4f, \"first_work_s\": %.4f, "
      "\"release_s\": %.4f}\n",
      prop.name, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4);
  return 0;
}
