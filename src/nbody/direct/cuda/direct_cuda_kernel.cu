// SPDX-License-Identifier: MIT
// Direct gravity on CUDA, the tiled all-pairs scheme of L. Nyland, M. Harris & J. Prins, "Fast
// N-Body Simulation with CUDA", GPU Gems 3, ch. 31 (2007):
//   a_i = G Σ_{j≠i} m_j d / (|d|² + ε_ij²)^{3/2},   φ_i = −G Σ_{j≠i} m_j / (|d|² + ε_ij²)^{1/2},
//   d = x_j − x_i. A block stages a tile of sources in shared memory and every thread sweeps it
// for several targets (2, 4 or 8: DirectPass::targets_per_thread). When the targets alone do not
// fill the GPU, the sources are split into slices (blockIdx.y), each summed by its own blocks
// into a partial sum, and the partials are added in slice order afterwards: the same bits for a
// given slice count.
// 1/r and 1/r³: the hardware's estimates, refined in fp64 (physics/inverse_sqrt.hpp); a pass
// without potentials needs only 1/r³, the cheaper of the two. A target's own term is skipped
// in the one tile that can hold it.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "device/cuda/cuda_check.hpp"
#include "nbody/direct/cuda/direct_cuda_launch.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/physics/inverse_sqrt.hpp"

namespace orrery::cuda {

namespace {

// A source as a tile holds it: one 16-byte shared-memory load per source in fp32, two in fp64.
template <class Real>
struct alignas(4 * sizeof(Real)) Source {
  Real x, y, z, m;
};

// A target's position, softening and sums, in registers.
template <class Real>
struct Target {
  Real x, y, z, h;
  Real ax = 0, ay = 0, az = 0, phi = 0;
};

template <class Real, bool OwnSoftening, bool Potentials>
__device__ __forceinline__ void add_source(Target<Real>& t, const Source<Real>& s, Real sh,
                                           Real global_eps2) {
  const Real dx = s.x - t.x, dy = s.y - t.y, dz = s.z - t.z;
  const Real e2 = OwnSoftening ? t.h + sh : global_eps2;
  const Real r2 = fma(dz, dz, fma(dy, dy, fma(dx, dx, e2)));
  Real f;  // m / r³
  if constexpr (Potentials) {
    const Real inv = fast_inverse_sqrt(r2);
    const Real mr = s.m * inv;
    f = mr * (inv * inv);
    t.phi += mr;
  } else {
    f = s.m * fast_inverse_cube(r2);
  }
  t.ax = fma(f, dx, t.ax);
  t.ay = fma(f, dy, t.ay);
  t.az = fma(f, dz, t.az);
}

// Each thread sums Targets targets (thread t: targets t, t + Threads, t + 2 Threads, ... of the
// block's tile): every source read from shared memory serves them all, and their independent
// chains hide each other's latency.
template <class Real, int Targets, bool OwnSoftening, bool Potentials>
__global__ void __launch_bounds__(kDirectTile / Targets)
    direct_tiles(DirectPass<Real> p, std::size_t slice_len) {
  constexpr int Threads = kDirectTile / Targets;
  __shared__ Source<Real> tile[kDirectTile];
  __shared__ Real sh[OwnSoftening ? kDirectTile : 1];
  const std::size_t first = p.begin + std::size_t(blockIdx.x) * kDirectTile;
  Target<Real> t[Targets];
  std::size_t index[Targets];
#pragma unroll
  for (int q = 0; q < Targets; ++q) {
    index[q] = first + threadIdx.x + q * Threads;
    const std::size_t ic = index[q] < p.end ? index[q] : p.end - 1;
    t[q].x = p.x[ic], t[q].y = p.y[ic], t[q].z = p.z[ic];
    t[q].h = OwnSoftening ? p.half_eps2[ic] : Real(0);
  }
  const std::size_t s0 = std::size_t(blockIdx.y) * slice_len;
  const std::size_t s1 = s0 + slice_len < p.n ? s0 + slice_len : p.n;
  for (std::size_t base = s0; base < s1; base += kDirectTile) {
    __syncthreads();
    for (int l = threadIdx.x; l < kDirectTile; l += Threads) {
      const std::size_t j = base + l;
      if (j < s1) {
        tile[l] = Source<Real>{p.x[j], p.y[j], p.z[j], p.mass[j]};
        if constexpr (OwnSoftening) sh[l] = p.half_eps2[j];
      }
    }
    __syncthreads();
    const int count = s1 - base < kDirectTile ? int(s1 - base) : kDirectTile;
    auto sweep = [&](int k) {
      const Source<Real> s = tile[k];
      const Real h = OwnSoftening ? sh[k] : Real(0);
#pragma unroll
      for (int q = 0; q < Targets; ++q)
        add_source<Real, OwnSoftening, Potentials>(t[q], s, h, p.global_eps2);
    };
    if (base == first) {  // the only tile that can hold the block's own targets
      for (int k = 0; k < count; ++k) {
        const Source<Real> s = tile[k];
        const Real h = OwnSoftening ? sh[k] : Real(0);
#pragma unroll
        for (int q = 0; q < Targets; ++q)
          if (k != int(threadIdx.x) + q * Threads)
            add_source<Real, OwnSoftening, Potentials>(t[q], s, h, p.global_eps2);
      }
    } else if (count == kDirectTile) {
#pragma unroll 8
      for (int k = 0; k < kDirectTile; ++k) sweep(k);
    } else {
      for (int k = 0; k < count; ++k) sweep(k);
    }
  }
  const std::size_t m = p.end - p.begin;
#pragma unroll
  for (int q = 0; q < Targets; ++q) {
    if (index[q] >= p.end) continue;
    const std::size_t o = index[q] - p.begin;
    if (p.slices == 1) {
      p.ax[o] = p.g * t[q].ax, p.ay[o] = p.g * t[q].ay, p.az[o] = p.g * t[q].az;
      if constexpr (Potentials) p.phi[o] = -p.g * t[q].phi;
    } else {
      Real* part = p.partial + std::size_t(blockIdx.y) * 4 * m;
      part[o] = t[q].ax, part[m + o] = t[q].ay, part[2 * m + o] = t[q].az,
      part[3 * m + o] = t[q].phi;
    }
  }
}

// Adds the slices' partial sums in slice order.
template <class Real>
__global__ void add_slices(DirectPass<Real> p) {
  const std::size_t m = p.end - p.begin;
  for (std::size_t o = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; o < m;
       o += std::size_t(gridDim.x) * blockDim.x) {
    Real s[4] = {0, 0, 0, 0};
    for (int k = 0; k < p.slices; ++k)
      for (int c = 0; c < 4; ++c) s[c] += p.partial[(std::size_t(k) * 4 + c) * m + o];
    p.ax[o] = p.g * s[0], p.ay[o] = p.g * s[1], p.az[o] = p.g * s[2];
    if (p.phi) p.phi[o] = -p.g * s[3];
  }
}

template <class Real, int Targets, bool OwnSoftening, bool Potentials>
void launch(const DirectPass<Real>& p, cudaStream_t stream) {
  const std::size_t targets = p.end - p.begin;
  const std::size_t tiles = (p.n + kDirectTile - 1) / kDirectTile;
  const std::size_t slice_tiles = (tiles + p.slices - 1) / p.slices;
  const dim3 grid(unsigned((targets + kDirectTile - 1) / kDirectTile), unsigned(p.slices));
  constexpr int threads = kDirectTile / Targets;
  direct_tiles<Real, Targets, OwnSoftening, Potentials><<<grid, threads, 0, stream>>>(
      p, slice_tiles * kDirectTile);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the direct gravity kernel");
  if (p.slices > 1) {
    add_slices<Real><<<unsigned((targets + 255) / 256), 256, 0, stream>>>(p);
    ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the direct gravity reduction");
  }
}

template <class Real, int Targets>
void launch_variant(const DirectPass<Real>& p, bool own, bool pot, cudaStream_t stream) {
  if (own && pot) launch<Real, Targets, true, true>(p, stream);
  else if (own) launch<Real, Targets, true, false>(p, stream);
  else if (pot) launch<Real, Targets, false, true>(p, stream);
  else launch<Real, Targets, false, false>(p, stream);
}

}  // namespace

int direct_slices(std::size_t targets, std::size_t n, int sms, int targets_per_thread) {
  // Blocks for the multiprocessor's 2048 threads (at most 32 resident blocks), the tail hidden.
  const int threads = kDirectTile / targets_per_thread;
  const std::size_t wanted = std::size_t(sms) * std::size_t(std::min(32, 2048 / threads));
  const std::size_t blocks = (targets + kDirectTile - 1) / kDirectTile;
  const std::size_t tiles = (n + kDirectTile - 1) / kDirectTile;
  if (blocks == 0 || tiles == 0) return 1;
  std::size_t s = blocks >= wanted ? 1 : (wanted + blocks - 1) / blocks;
  if (s > tiles) s = tiles;
  return s < 1 ? 1 : int(s);
}

template <class Real>
void launch_direct_pass(const DirectPass<Real>& p, cudaStream_t stream) {
  if (p.end <= p.begin) return;
  const bool own = p.half_eps2 != nullptr, pot = p.phi != nullptr;
  static_assert(kCudaDirectTargetsPerThread == std::array{2, 4, 8}, "a case for each variant");
  switch (p.targets_per_thread) {
    case 2: return launch_variant<Real, 2>(p, own, pot, stream);
    case 4: return launch_variant<Real, 4>(p, own, pot, stream);
    case 8: return launch_variant<Real, 8>(p, own, pot, stream);
  }
  throw std::logic_error("direct gravity kernel: targets per thread not 2, 4 or 8");
}

template void launch_direct_pass<float>(const DirectPass<float>&, cudaStream_t);
template void launch_direct_pass<double>(const DirectPass<double>&, cudaStream_t);

}  // namespace orrery::cuda
