// SPDX-License-Identifier: MIT
// Direct gravity on CUDA, the tiled all-pairs scheme of L. Nyland, M. Harris & J. Prins, "Fast
// N-Body Simulation with CUDA", GPU Gems 3, ch. 31 (2007):
//   a_i = G Σ_{j≠i} m_j d / (|d|² + ε_ij²)^{3/2},   φ_i = −G Σ_{j≠i} m_j / (|d|² + ε_ij²)^{1/2},
//   d = x_j − x_i. One thread per target; a block stages a tile of sources in shared memory and
// every thread sweeps it. When the targets alone do not fill the GPU, the sources are split
// into slices (blockIdx.y), each summed by its own blocks into a partial sum, and the partials
// are added in slice order afterwards: the same bits for a given slice count.
// 1/r and 1/r³: the hardware's estimates, refined in fp64 (physics/inverse_sqrt.hpp); a pass
// without potentials needs only 1/r³, the cheaper of the two. A target's own term is skipped
// in the one tile that can hold it.
#include <cuda_runtime.h>

#include "device/cuda/cuda_check.hpp"
#include "nbody/direct/cuda/direct_cuda_launch.hpp"
#include "orrery/physics/inverse_sqrt.hpp"

namespace orrery::cuda {

namespace {

// A source as a tile holds it: one 16-byte shared-memory load per source in fp32, two in fp64.
template <class Real>
struct alignas(4 * sizeof(Real)) Source {
  Real x, y, z, m;
};

template <class Real, bool OwnSoftening, bool Potentials>
__global__ void __launch_bounds__(kDirectTile)
    direct_tiles(DirectPass<Real> p, std::size_t slice_len) {
  __shared__ Source<Real> tile[kDirectTile];
  __shared__ Real sh[OwnSoftening ? kDirectTile : 1];
  const std::size_t first = p.begin + std::size_t(blockIdx.x) * kDirectTile;
  const std::size_t i = first + threadIdx.x;
  const bool valid = i < p.end;
  const std::size_t ic = valid ? i : p.end - 1;
  const Real xi = p.x[ic], yi = p.y[ic], zi = p.z[ic];
  const Real hi = OwnSoftening ? p.half_eps2[ic] : Real(0);
  Real ax = 0, ay = 0, az = 0, phi = 0;
  const std::size_t s0 = std::size_t(blockIdx.y) * slice_len;
  const std::size_t s1 = s0 + slice_len < p.n ? s0 + slice_len : p.n;
  for (std::size_t t = s0; t < s1; t += kDirectTile) {
    const std::size_t j = t + threadIdx.x;
    __syncthreads();
    if (j < s1) {
      tile[threadIdx.x] = Source<Real>{p.x[j], p.y[j], p.z[j], p.mass[j]};
      if constexpr (OwnSoftening) sh[threadIdx.x] = p.half_eps2[j];
    }
    __syncthreads();
    const int count = s1 - t < kDirectTile ? int(s1 - t) : kDirectTile;
    const bool own_tile = t == first;  // the only tile that can hold target i itself
    auto term = [&](int k) {
      const Source<Real> s = tile[k];
      const Real dx = s.x - xi, dy = s.y - yi, dz = s.z - zi;
      const Real e2 = OwnSoftening ? hi + sh[k] : p.global_eps2;
      const Real r2 = fma(dz, dz, fma(dy, dy, fma(dx, dx, e2)));
      Real f;  // m / r³
      if constexpr (Potentials) {
        const Real inv = fast_inverse_sqrt(r2);
        const Real mr = s.m * inv;
        f = mr * (inv * inv);
        phi += mr;
      } else {
        f = s.m * fast_inverse_cube(r2);
      }
      ax = fma(f, dx, ax);
      ay = fma(f, dy, ay);
      az = fma(f, dz, az);
    };
    if (own_tile) {
      for (int k = 0; k < count; ++k)
        if (k != int(threadIdx.x)) term(k);
    } else if (count == kDirectTile) {
#pragma unroll 16
      for (int k = 0; k < kDirectTile; ++k) term(k);
    } else {
      for (int k = 0; k < count; ++k) term(k);
    }
  }
  if (!valid) return;
  const std::size_t o = i - p.begin;
  if (p.slices == 1) {
    p.ax[o] = p.g * ax, p.ay[o] = p.g * ay, p.az[o] = p.g * az;
    if constexpr (Potentials) p.phi[o] = -p.g * phi;
  } else {
    const std::size_t m = p.end - p.begin;
    Real* part = p.partial + std::size_t(blockIdx.y) * 4 * m;
    part[o] = ax, part[m + o] = ay, part[2 * m + o] = az, part[3 * m + o] = phi;
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

template <class Real, bool OwnSoftening, bool Potentials>
void launch(const DirectPass<Real>& p, cudaStream_t stream) {
  const std::size_t targets = p.end - p.begin;
  const std::size_t tiles = (p.n + kDirectTile - 1) / kDirectTile;
  const std::size_t slice_tiles = (tiles + p.slices - 1) / p.slices;
  const dim3 grid(unsigned((targets + kDirectTile - 1) / kDirectTile), unsigned(p.slices));
  direct_tiles<Real, OwnSoftening, Potentials><<<grid, kDirectTile, 0, stream>>>(
      p, slice_tiles * kDirectTile);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the direct gravity kernel");
  if (p.slices > 1) {
    add_slices<Real><<<unsigned((targets + 255) / 256), 256, 0, stream>>>(p);
    ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the direct gravity reduction");
  }
}

}  // namespace

int direct_slices(std::size_t targets, std::size_t n, int sms) {
  // Two blocks of 256 per multiprocessor in flight, four waves: enough to hide the tail.
  const std::size_t wanted = std::size_t(sms) * 8;
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
  if (own && pot) launch<Real, true, true>(p, stream);
  else if (own) launch<Real, true, false>(p, stream);
  else if (pot) launch<Real, false, true>(p, stream);
  else launch<Real, false, false>(p, stream);
}

template void launch_direct_pass<float>(const DirectPass<float>&, cudaStream_t);
template void launch_direct_pass<double>(const DirectPass<double>&, cudaStream_t);

}  // namespace orrery::cuda
