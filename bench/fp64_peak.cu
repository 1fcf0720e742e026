// SPDX-License-Identifier: MIT
// The GPU's fp64 instruction-issue ceiling, measured: independent chains of fused multiply-adds
// in every resident thread. The divergence map's fraction of the hardware limit is its fp64
// instructions per second (pixel-steps/s × fp64 instructions per pixel-step, read from the
// SASS) over this rate.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace orrery::bench {

namespace {

constexpr int kChains = 8;
constexpr int kIterations = 4096;

__global__ void dfma_chains(double* out, double b, double c) {
  double a[kChains];
  for (int i = 0; i < kChains; ++i) a[i] = threadIdx.x * 1e-3 + i;
  for (int n = 0; n < kIterations; ++n)
#pragma unroll
    for (int i = 0; i < kChains; ++i) a[i] = fma(a[i], b, c);
  double s = 0;
  for (int i = 0; i < kChains; ++i) s += a[i];
  if (s == 42.0) out[0] = s;  // keeps the chains alive
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

// Fused multiply-adds per second over the whole device (the best of three runs).
double fp64_fma_per_second(int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
  double* out = nullptr;
  check(cudaMalloc(&out, sizeof(double)), "cudaMalloc");
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const int blocks = sms * 8, threads = 256;
  double best = 0;
  for (int run = 0; run < 4; ++run) {
    cudaEventRecord(start);
    dfma_chains<<<blocks, threads>>>(out, 0.999999, 1e-7);
    cudaEventRecord(stop);
    check(cudaEventSynchronize(stop), "dfma_chains");
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    const double rate = double(blocks) * threads * kChains * kIterations / (ms * 1e-3);
    if (run > 0 && rate > best) best = rate;  // run 0 warms up
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(out);
  return best;
}

}  // namespace orrery::bench
