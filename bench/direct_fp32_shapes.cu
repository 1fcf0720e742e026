// SPDX-License-Identifier: MIT
// Is the CUDA direct kernel's fp32 sweep at its best shape? The same sweep as
// nbody/direct/cuda/direct_cuda_kernel.cu (accelerations alone, one ε for all, a tile of sources
// in shared memory, several targets per thread), stripped to what decides its speed, in the
// shapes that could change it: 4, 8, 12 or 16 targets per thread, tiles of 256 to 1 024
// sources, the sweep unrolled 4, 8 or 16 times, and the 1/r³ products split so that the
// reciprocal square roots issue apart from their uses. Interactions per second, best of 5, at
// N = 2²⁰ uniform in [−1, 1]³: one JSON line per shape. A one-off measurement behind
// bench/README.md ("Direct gravity on CUDA"), not part of the build; on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/direct_fp32_shapes.cu -o /tmp/shapes && /tmp/shapes
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

struct alignas(16) Src {
  float x, y, z, m;
};

__device__ __forceinline__ float rsq(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

template <int Targets, int Tile, int Unroll, int Order>
__global__ void __launch_bounds__(Tile / Targets)
    sweep(const float* __restrict__ px, const float* __restrict__ py, const float* __restrict__ pz,
          const float* __restrict__ pm, int n, float e2, float* ax_out) {
  constexpr int Threads = Tile / Targets;
  __shared__ Src tile[Tile];
  const int first = blockIdx.x * Tile;
  float x[Targets], y[Targets], z[Targets], ax[Targets], ay[Targets], az[Targets];
#pragma unroll
  for (int q = 0; q < Targets; ++q) {
    const int i = first + threadIdx.x + q * Threads;
    x[q] = px[i], y[q] = py[i], z[q] = pz[i];
    ax[q] = ay[q] = az[q] = 0;
  }
  for (int base = 0; base < n; base += Tile) {
    __syncthreads();
    for (int l = threadIdx.x; l < Tile; l += Threads)
      tile[l] = Src{px[base + l], py[base + l], pz[base + l], pm[base + l]};
    __syncthreads();
#pragma unroll Unroll
    for (int k = 0; k < Tile; ++k) {
      const Src s = tile[k];
      if constexpr (Order == 0) {
#pragma unroll
        for (int q = 0; q < Targets; ++q) {
          const float dx = s.x - x[q], dy = s.y - y[q], dz = s.z - z[q];
          const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, e2)));
          const float w = rsq(r2);
          const float f = s.m * (w * w * w);
          ax[q] = fmaf(f, dx, ax[q]), ay[q] = fmaf(f, dy, ay[q]), az[q] = fmaf(f, dz, az[q]);
        }
      } else {
        // f = m w³ written as (m w)(w w): two independent products
        float dx[Targets], dy[Targets], dz[Targets], w[Targets];
#pragma unroll
        for (int q = 0; q < Targets; ++q) {
          dx[q] = s.x - x[q], dy[q] = s.y - y[q], dz[q] = s.z - z[q];
          w[q] = rsq(fmaf(dz[q], dz[q], fmaf(dy[q], dy[q], fmaf(dx[q], dx[q], e2))));
        }
#pragma unroll
        for (int q = 0; q < Targets; ++q) {
          const float f = (s.m * w[q]) * (w[q] * w[q]);
          ax[q] = fmaf(f, dx[q], ax[q]), ay[q] = fmaf(f, dy[q], ay[q]), az[q] = fmaf(f, dz[q], az[q]);
        }
      }
    }
  }
  float s = 0;
#pragma unroll
  for (int q = 0; q < Targets; ++q) s += ax[q] + ay[q] + az[q];
  ax_out[first + threadIdx.x] = s;
}

template <int Targets, int Tile, int Unroll, int Order>
void run(const char* name, int n, float* x, float* y, float* z, float* m, float* out) {
  auto k = sweep<Targets, Tile, Unroll, Order>;
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  k<<<n / Tile, Tile / Targets>>>(x, y, z, m, n, 1e-8f, out);
  cudaDeviceSynchronize();
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    k<<<n / Tile, Tile / Targets>>>(x, y, z, m, n, 1e-8f, out);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    best = ms < best ? ms : best;
  }
  const double rate = double(n) * n / (best * 1e-3);
  int regs = 0;
  cudaFuncAttributes at;
  cudaFuncGetAttributes(&at, k);
  regs = at.numRegs;
  printf("{\"variant\": \"%s\", \"n\": %d, \"ms\": %.3f, \"interactions_per_s\": %.4e, \"regs\": %d}\n",
         name, n, best, rate, regs);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  std::vector<float> h(4 * n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int i = 0; i < 3 * n; ++i) h[i] = u(rng);
  for (int i = 0; i < n; ++i) h[3 * n + i] = 1.0f / n;
  float *d, *out;
  cudaMalloc(&d, 4 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(d, h.data(), 4 * n * sizeof(float), cudaMemcpyHostToDevice);
  float *x = d, *y = d + n, *z = d + 2 * n, *m = d + 3 * n;
  run<8, 256, 8, 0>("t8 tile256 u8 (current)", n, x, y, z, m, out);
  run<8, 256, 4, 0>("t8 tile256 u4", n, x, y, z, m, out);
  run<8, 256, 16, 0>("t8 tile256 u16", n, x, y, z, m, out);
  run<8, 256, 8, 1>("t8 tile256 u8 split", n, x, y, z, m, out);
  run<8, 512, 8, 0>("t8 tile512 u8", n, x, y, z, m, out);
  run<8, 1024, 8, 0>("t8 tile1024 u8", n, x, y, z, m, out);
  run<16, 512, 4, 0>("t16 tile512 u4", n, x, y, z, m, out);
  run<16, 512, 8, 0>("t16 tile512 u8", n, x, y, z, m, out);
  run<16, 1024, 4, 0>("t16 tile1024 u4", n, x, y, z, m, out);
  run<4, 256, 8, 0>("t4 tile256 u8", n, x, y, z, m, out);
  run<4, 512, 8, 0>("t4 tile512 u8", n, x, y, z, m, out);
  run<12, 384, 4, 0>("t12 tile384 u4", n, x, y, z, m, out);
  return 0;
}
