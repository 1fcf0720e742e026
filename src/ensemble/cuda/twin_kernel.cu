// SPDX-License-Identifier: MIT
// The divergence map on a GPU: one thread integrates one pixel's twin pair with the shared
// ORRERY_HD step (twin_divergence.hpp), both systems' state in registers for the whole loop.
// A persistent grid: each resident thread starts on its own pixel and, when that pixel
// diverges or reaches `steps`, claims the next one with one atomic increment, so no lane of a
// warp idles while its neighbours run on, and the device's work is the steps actually needed.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.hpp"
#include "orrery/ensemble/twin_divergence.hpp"
#include "orrery/gravity/precision_traits.hpp"
#include "twin_kernel.hpp"

namespace orrery::cuda {

namespace {

// Small blocks: a block's resources return to the device only when all its threads are done,
// so at the end of a tile small blocks free the multiprocessor for the next tile sooner. Eight
// blocks of two warps per multiprocessor keep the registers within 128 per thread.
constexpr int kThreadsPerBlock = 64;
constexpr int kMinBlocksPerSm = 8;

// twin_start() for a varied body known at compile time, so that the state never passes through
// a run-time-indexed (local-memory) array.
template <int Body, class R>
__device__ void load_pixel(TwinState<R>& st, const DivergenceSetup& s, const TwinTile& t,
                           std::uint64_t q) {
  const std::uint64_t p = t.list[q];
  for (int n = 0; n < kMapBodies; ++n) {
    st.base.x[n] = st.twin.x[n] = convert_vec<R>(s.x0[n]);
    st.base.v[n] = st.twin.v[n] = convert_vec<R>(s.v0[n]);
  }
  const Vec3d start = pixel_start(s, static_cast<std::int64_t>(p % s.width),
                                  static_cast<std::int64_t>(p / s.width));
  st.base.x[Body] = convert_vec<R>(start);
  st.twin.x[Body] = convert_vec<R>(start + s.shift);
}

template <Precision P, int Body, bool Exact>
__global__ void __launch_bounds__(kThreadsPerBlock, kMinBlocksPerSm)
    twin_kernel(const DivergenceSetup s, const TwinTile t) {
  using Traits = PrecisionTraits<P>;
  using R = typename Traits::Real;
  using InverseCube =
      std::conditional_t<Exact, typename Traits::InverseCube, typename Traits::FastInverseCube>;

  PairwiseGravity<kMapBodies, R, InverseCube> gravity;
  for (int n = 0; n < kMapBodies; ++n) gravity.gm[n] = static_cast<R>(s.gm[n]);
  const R dt = static_cast<R>(s.dt);
  const R dc2 = static_cast<R>(s.critical_distance2);
  const std::uint64_t resident = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;

  std::uint64_t q = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= t.count) return;
  TwinState<R> st;
  load_pixel<Body>(st, s, t, q);
  std::int64_t n = 0;  // checks passed so far
  for (;;) {
    const R d2 = twin_separation2<Body>(st);
    const bool diverged = !(d2 <= dc2);  // NaN compares false: a non-finite pixel stops
    if (diverged || n == s.steps) {
      t.counts[q] = static_cast<std::int32_t>(n);
      t.nonfinite[q] = n < s.steps && !isfinite(d2);
      q = resident + atomicAdd(t.claimed, 1ull);
      if (q >= t.count) return;
      load_pixel<Body>(st, s, t, q);
      n = 0;
      continue;  // the fresh pixel is checked at its step 0 before anything moves
    }
    twin_advance(st, gravity, dt);
    ++n;
  }
}

using KernelFn = void (*)(const DivergenceSetup, const TwinTile);

template <Precision P, bool Exact>
KernelFn pick_body(int body) {
  switch (body) {
    case 0: return twin_kernel<P, 0, Exact>;
    case 1: return twin_kernel<P, 1, Exact>;
    default: return twin_kernel<P, 2, Exact>;
  }
}

template <Precision P>
KernelFn pick_exact(int body, bool exact) {
  return exact ? pick_body<P, true>(body) : pick_body<P, false>(body);
}

KernelFn pick(Precision precision, int body, bool exact) {
  switch (precision) {
    case Precision::fp32: return pick_exact<Precision::fp32>(body, exact);
    case Precision::mixed: return pick_exact<Precision::mixed>(body, exact);
    default: return pick_exact<Precision::fp64>(body, exact);
  }
}

}  // namespace

TwinLaunch twin_launch_shape(Precision precision, int body, bool exact, int device) {
  int sms = 0, per_sm = 0;
  const std::string where = "device " + std::to_string(device);
  ORRERY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), where);
  ORRERY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                        &per_sm, pick(precision, body, exact), kThreadsPerBlock, 0),
                    where);
  return {sms * (per_sm > 0 ? per_sm : 1), kThreadsPerBlock};
}

void launch_twin_kernel(const DivergenceSetup& setup, Precision precision, bool exact,
                        const TwinTile& tile, const TwinLaunch& shape, cudaStream_t stream) {
  const auto needed = static_cast<int>((tile.count + shape.threads_per_block - 1) /
                                       static_cast<std::uint64_t>(shape.threads_per_block));
  const int blocks = needed < shape.blocks ? needed : shape.blocks;
  if (blocks == 0) return;
  pick(precision, setup.body, exact)<<<blocks, shape.threads_per_block, 0, stream>>>(setup, tile);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the divergence kernel");
}

}  // namespace orrery::cuda
