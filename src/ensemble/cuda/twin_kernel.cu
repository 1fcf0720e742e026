// SPDX-License-Identifier: MIT
// The divergence map on a GPU: one thread integrates one pixel's twin pair with the shared
// ORRERY_HD step (twin_divergence.hpp), both systems' state in registers for the whole loop.
// A persistent grid fed by the host: each resident thread, when its pixel diverges or reaches
// `steps`, claims the next work item with one atomic increment, so no lane of a warp idles while
// its neighbours run on, the device's work is the steps actually needed, and one launch serves
// the whole run (no tail between batches).
#include <cuda_runtime.h>

#include <string>

#include <cuda/atomic>

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

template <int Body, class R>
__device__ void load_pixel(TwinState<R>& st, const DivergenceSetup& s, std::uint64_t p) {
  const TwinStart start = twin_start<Body>(s, static_cast<std::int64_t>(p % s.width),
                                           static_cast<std::int64_t>(p / s.width));
  for (int n = 0; n < kMapBodies; ++n) {
    st.base.x[n] = convert_vec<R>(start.base.x[n]);
    st.base.v[n] = convert_vec<R>(start.base.v[n]);
    st.twin.x[n] = convert_vec<R>(start.twin.x[n]);
    st.twin.v[n] = convert_vec<R>(start.twin.v[n]);
  }
}

// A load that sees everything the host wrote to pinned memory before it wrote this value.
template <class T>
__device__ T load_acquire(const T& x) {
  return ::cuda::atomic_ref<T, ::cuda::thread_scope_system>(const_cast<T&>(x))
      .load(::cuda::memory_order_acquire);
}

// The next work item for this thread, or false when the feed is closed. The host writes ring
// entries and `closed` into pinned memory while the kernel runs.
__device__ bool next_item(const TwinFeed& f, std::uint64_t& item) {
  const std::uint64_t s = atomicAdd(f.claimed, 1ull);
  const std::uint64_t tag = s + 1;
  const std::uint64_t& slot = f.ring[s % f.capacity];
  for (;;) {
    const std::uint64_t e = load_acquire(slot);
    if ((e >> 32) == tag) {
      item = e & 0xffffffffu;
      return true;
    }
    if ((e >> 32) > tag) {  // the host reused the slot before this thread read it
      *const_cast<volatile int*>(f.overrun) = 1;
      return false;
    }
    if (load_acquire(*f.closed)) {
      // Entries written before `closed` are visible now: look once more.
      const std::uint64_t again = load_acquire(slot);
      if ((again >> 32) != tag) return false;
      item = again & 0xffffffffu;
      return true;
    }
    __nanosleep(500);
  }
}

template <Precision P, int Body, bool Exact>
__global__ void __launch_bounds__(kThreadsPerBlock, kMinBlocksPerSm)
    twin_kernel(const DivergenceSetup s, const TwinFeed f) {
  using Traits = PrecisionTraits<P>;
  using R = typename Traits::Real;
  using InverseCube =
      std::conditional_t<Exact, typename Traits::InverseCube, typename Traits::FastInverseCube>;

  PairwiseGravity<kMapBodies, R, InverseCube> gravity;
  for (int n = 0; n < kMapBodies; ++n) gravity.gm[n] = static_cast<R>(s.gm[n]);
  const R dt = static_cast<R>(s.dt);
  const R dc2 = static_cast<R>(s.critical_distance2);

  std::uint64_t item = 0;
  if (!next_item(f, item)) return;
  TwinState<R> st;
  load_pixel<Body>(st, s, f.list ? f.list[item] : item);
  std::int64_t n = 0;  // checks passed so far
  for (;;) {
    const R d2 = twin_separation2<Body>(st);
    const bool diverged = !(d2 <= dc2);  // NaN compares false: a non-finite pixel stops
    if (diverged || n == s.steps) {
      f.out_counts[item] = static_cast<std::int32_t>(n);
      f.out_nonfinite[item] = n < s.steps && !isfinite(d2);
      if (!next_item(f, item)) return;
      load_pixel<Body>(st, s, f.list ? f.list[item] : item);
      n = 0;
      continue;  // the fresh pixel is checked at its step 0 before anything moves
    }
    twin_advance(st, gravity, dt);
    ++n;
  }
}

using KernelFn = void (*)(const DivergenceSetup, const TwinFeed);

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
                        const TwinFeed& feed, const TwinLaunch& shape, cudaStream_t stream) {
  pick(precision, setup.body, exact)<<<shape.blocks, shape.threads_per_block, 0, stream>>>(setup,
                                                                                        feed);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "launching the divergence kernel");
}

}  // namespace orrery::cuda
