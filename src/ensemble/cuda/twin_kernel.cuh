// SPDX-License-Identifier: MIT
// The divergence map on a GPU: one thread integrates one pixel's twin pair with the shared
// ORRERY_HD problem (problems/divergence3/twin_divergence.hpp, any map integrator), both
// systems' state in registers while it runs.
// The persistent agent (persistent_agent.cuh) feeds, parks and refills the threads; the map is
// its client (TwinClient, below): a pixel's start, the stop rule, the count, the step.
//
// Included once per map integrator by the files CMake generates (src/CMakeLists.txt), each of
// which instantiates twin_kernel_for<I> (twin_kernel.hpp) for its integrator I, so the kernels of
// different integrators compile in parallel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "ensemble/cuda/map_schedule_policy.hpp"
#include "ensemble/cuda/persistent_agent.cuh"
#include "ensemble/cuda/twin_kernel.hpp"
#include "ensemble/map_kernel_dispatch.hpp"
#include "ensemble/schedule/result_collector.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/physics/precision_traits.hpp"

namespace orrery::cuda {

namespace {

template <class Problem>
__device__ void load_pixel(typename Problem::State& st, const DivergenceSetup& s,
                           const typename Problem::Gravity& gravity, std::uint64_t p) {
  using R = typename Problem::Real;
  const TwinStart start = twin_start<Problem::body>(s, static_cast<std::int64_t>(p % s.width),
                                                    static_cast<std::int64_t>(p / s.width));
  for (int n = 0; n < kMapBodies; ++n) {
    st.base.x[n] = convert_vec<R>(start.base.x[n]);
    st.base.v[n] = convert_vec<R>(start.base.v[n]);
    st.twin.x[n] = convert_vec<R>(start.twin.x[n]);
    st.twin.v[n] = convert_vec<R>(start.twin.v[n]);
  }
  Problem::begin(st, gravity);
}

// The map's client of the persistent agent (persistent_agent.cuh): a task is a pixel, its state
// the twin pair, its stop rule the separation beyond the critical distance (or `steps` passed),
// its record the count (result_collector.hpp: complemented if the separation was not finite).
// Built once per thread by the agent, from the kernel's setup.
template <class Problem>
struct TwinClient {
  using State = typename Problem::State;
  using Real = typename Problem::Real;
  using Record = std::int32_t;
  using Setup = DivergenceSetup;
  const DivergenceSetup& s;
  const typename Problem::Gravity gravity;
  const Real dt;
  const Real dc2;
  const std::int32_t steps;

  __device__ explicit TwinClient(const DivergenceSetup& setup)
      : s(setup),
        gravity(Problem::gravity(setup)),
        dt(static_cast<Real>(setup.dt)),
        dc2(static_cast<Real>(setup.critical_distance2)),
        steps(static_cast<std::int32_t>(setup.steps)) {}

  __device__ void load(State& st, std::uint64_t p) const { load_pixel<Problem>(st, s, gravity, p); }
  __device__ void begin(State& st) const { Problem::begin(st, gravity); }
  // The pixel goes on while the squared separation of the varied body from its twin is within
  // d_c² (a NaN compares false: a non-finite pixel stops) and `steps` are not passed. Both tests
  // are taken, without a branch between them, in this order: written otherwise (with &&, or
  // over a separation computed by the agent) the pass's tests come out in another order, and
  // ptxas allocates the heavier kernels' registers differently (scripts/cubin_text_compare.py).
  __device__ bool runs(const State& st, std::int32_t n) const {
    return (n != steps) & (Problem::separation2(st) <= dc2);
  }
  // The count, complemented if the separation was not finite (the same separation as runs()
  // computed: the compiler computes it once).
  __device__ Record record(const State& st, std::int32_t n) const {
    return result_word(n, n < steps && !isfinite(Problem::separation2(st)));
  }
  __device__ void step(State& st, std::int32_t n) const {
    Problem::advance(st, gravity, dt, n < Problem::starter_steps);
  }
  template <class F>
  __device__ static void for_each_parked(State& st, F&& f) {
    Problem::for_each_parked(st, static_cast<F&&>(f));
  }
};

// The map's kernel: the agent over the client, with the problem's launch bounds.
template <class Problem>
__global__ void __launch_bounds__(MapPolicy::threads_per_block,
                                  MapPolicy::min_blocks_per_sm_for<Problem>())
    twin_kernel(const DivergenceSetup s, const TwinFeed f) {
  persistent_agent<TwinClient<Problem>>(s, f);
}

}  // namespace

// The kernel of map integrator I for a precision mode, varied body and pair factor.
template <int I>
TwinKernelFn twin_kernel_for(Precision precision, int body, bool exact) {
  return visit_map_kernel(precision, body, [&]<Precision P, int Body>() -> TwinKernelFn {
    using Traits = PrecisionTraits<P>;
    using R = typename Traits::Real;
    using Table = map_integrator_t<I>;
    if (exact) return twin_kernel<TwinDivergence<Table, R, typename Traits::InverseCube, Body>>;
    return twin_kernel<TwinDivergence<Table, R, typename Traits::FastInverseCube, Body>>;
  });
}

}  // namespace orrery::cuda
