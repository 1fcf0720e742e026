// SPDX-License-Identifier: MIT
// The published kernel's schedule, for comparison: one thread per pixel over the whole grid,
// consecutive pixels in a warp, each thread leaving its loop when its pixel diverges — but a
// warp runs until its last lane is done. Same ORRERY_HD step and fast pair factor as the
// library's persistent kernel, same block shape; only the schedule differs.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/physics/precision_traits.hpp"

namespace orrery::bench {

namespace {

template <int Body>
__global__ void __launch_bounds__(64, 8) naive_twin_kernel(const DivergenceSetup s, std::int32_t* counts) {
  using Problem = TwinDivergence<ExplicitEuler, double, InverseCubeFast, Body>;
  const std::uint64_t p = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= static_cast<std::uint64_t>(s.width) * s.height) return;
  const typename Problem::Gravity gravity = Problem::gravity(s);
  const TwinStart start = twin_start<Body>(s, static_cast<std::int64_t>(p % s.width),
                                           static_cast<std::int64_t>(p / s.width));
  typename Problem::State st{start.base, start.twin};
  std::int64_t n = 0;
  for (; n < s.steps; ++n) {
    if (!(Problem::separation2(st) <= s.critical_distance2)) break;
    Problem::advance(st, gravity, s.dt, false);
  }
  counts[p] = static_cast<std::int32_t>(n);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

// Seconds of device time for the whole map on device 0 with the naive schedule (fp64, body 1),
// and its counts.
double naive_map_seconds(const DivergenceSetup& s, std::vector<std::int32_t>& counts) {
  const std::size_t n = static_cast<std::size_t>(s.width) * s.height;
  check(cudaSetDevice(0), "cudaSetDevice");
  std::int32_t* d = nullptr;
  check(cudaMalloc(&d, n * sizeof(std::int32_t)), "cudaMalloc");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  naive_twin_kernel<0><<<static_cast<unsigned>((n + 63) / 64), 64>>>(s, d);
  check(cudaGetLastError(), "naive kernel launch");
  cudaEventRecord(b);
  check(cudaEventSynchronize(b), "naive kernel");
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  counts.resize(n);
  check(cudaMemcpy(counts.data(), d, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost), "copy");
  cudaFree(d);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms * 1e-3;
}

}  // namespace orrery::bench
