// SPDX-License-Identifier: MIT
// The CPU divergence-map kernel, compiled once per instruction set and group of map integrators
// (ORRERY_CPU_KERNEL names the variant, with CMake's -march for it; ORRERY_MAP_INTEGRATORS the
// comma-separated indices into ensemble/map_integrators.hpp that one object holds). One SIMD lane integrates one pixel's twin pair with
// the shared ORRERY_HD problem (problems/divergence3/twin_divergence.hpp); when a pixel
// finishes, its lane takes the next pixel at once, so every lane-step is useful work whatever
// the mix of early and late divergence.
#include <cmath>
#include <limits>

#include "ensemble/cpu/twin_task_source.hpp"
#include "orrery/core/simd.hpp"
#include "ensemble/map_kernel_dispatch.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/physics/precision_traits.hpp"

#if !defined(ORRERY_CPU_KERNEL) || !defined(ORRERY_MAP_INTEGRATORS)
#error "compile with -DORRERY_CPU_KERNEL=<isa> -DORRERY_MAP_INTEGRATORS=<index>,<index>,..."
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// The varied body is chosen at run time here, not compiled in as on the GPU (whose registers
// need the index): one kernel per precision, not three, with the same arithmetic, since only the
// start and the observable depend on the body, and the observable's switch keeps each index
// known at compile time.
template <int I, Precision P>
void run_lanes(const DivergenceSetup& s, TwinTaskSource& src) {
  using Traits = PrecisionTraits<P>;
  using R = typename Traits::Real;
  using V = stdx::native_simd<R>;
  using Mask = typename V::mask_type;
  using Problem = TwinDivergence<map_integrator_t<I>, V, typename Traits::InverseCube, 0>;
  constexpr int L = static_cast<int>(V::size());
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  const typename Problem::Gravity gravity = Problem::gravity(s);
  const V dt(static_cast<R>(s.dt));
  const V dc2(static_cast<R>(s.critical_distance2));

  typename Problem::State st;
  std::int64_t task[L];
  std::int64_t start[L];
  Mask active(false);
  Tile tile;
  std::int64_t finished_pixels = 0, finished_steps = 0;

  const auto set_lane = [&](BodyState<V, kMapBodies>& dst, const BodyState<double, kMapBodies>& x,
                            int l) {
    for (int n = 0; n < kMapBodies; ++n) {
      dst.x[n].x[l] = static_cast<R>(x.x[n].x);
      dst.x[n].y[l] = static_cast<R>(x.x[n].y);
      dst.x[n].z[l] = static_cast<R>(x.x[n].z);
      dst.v[n].x[l] = static_cast<R>(x.v[n].x);
      dst.v[n].y[l] = static_cast<R>(x.v[n].y);
      dst.v[n].z[l] = static_cast<R>(x.v[n].z);
    }
  };
  // Lane l's start; the integrator's start is made for all lanes once their starts are in
  // (begin(), below: recomputing a lane's kept values from its unchanged state gives their bits).
  const auto load = [&](int l, std::int64_t t) {
    std::int64_t j = 0, k = 0;
    src.pixel_of(t, j, k);
    const TwinStart ts = twin_start(s, j, k);
    set_lane(st.base, ts.base, l);
    set_lane(st.twin, ts.twin, l);
  };
  // Gives lane l the next task, starting at global step n; an idle lane keeps integrating a
  // finite copy of its last pixel so that it never feeds NaN or denormals to the vector units.
  const auto assign = [&](int l, std::int64_t n) {
    if (tile.next == tile.size && !src.next_tile(tile, finished_pixels, finished_steps)) {
      active[l] = false;
      return;
    }
    task[l] = static_cast<std::int64_t>(tile.items[tile.next++]);
    start[l] = n;
    active[l] = true;
    load(l, task[l]);
  };
  const auto finish = [&](int l, std::int64_t count, bool nonfinite) {
    src.counts[task[l]] = static_cast<std::int32_t>(count);
    src.nonfinite[task[l]] = nonfinite ? 1 : 0;
    finished_pixels += 1;
    finished_steps += count;
  };
  const auto next_deadline = [&]() {
    std::int64_t d = kNever;
    for (int l = 0; l < L; ++l)
      if (active[l] && start[l] + s.steps < d) d = start[l] + s.steps;
    return d;
  };
  // Lanes in their trajectory's first steps, for multistep starters (n: the thread's clock).
  const auto starting = [&](std::int64_t n) {
    if constexpr (Problem::starter_steps > 0) {
      Mask m(false);
      for (int l = 0; l < L; ++l) m[l] = n - start[l] < Problem::starter_steps;
      return m;
    } else {
      return false;
    }
  };

  for (int l = 0; l < L; ++l) assign(l, 0);
  if (stdx::none_of(active)) return;
  for (int l = 0; l < L; ++l)
    if (!active[l]) load(l, task[stdx::find_first_set(active)]);
  Problem::begin(st, gravity);

  std::int64_t n = 0;  // this thread's step clock; lane l is at step n − start[l] of its pixel
  std::int64_t deadline = next_deadline();
  while (stdx::any_of(active)) {
    if (n == deadline) {  // lanes that passed all `steps` checks
      for (int l = 0; l < L; ++l)
        if (active[l] && n - start[l] == s.steps) {
          finish(l, s.steps, false);
          assign(l, n);
          if (!active[l]) load(l, task[l]);
        }
      Problem::begin(st, gravity);
      deadline = next_deadline();
      continue;
    }
    const V d2 = s.body == 0   ? Problem::template separation2<0>(st)
                 : s.body == 1 ? Problem::template separation2<1>(st)
                               : Problem::template separation2<2>(st);
    const Mask diverged = !(d2 <= dc2) && active;  // NaN compares false: a non-finite pixel stops
    if (stdx::any_of(diverged)) {
      for (int l = 0; l < L; ++l)
        if (diverged[l]) {
          finish(l, n - start[l], !std::isfinite(static_cast<double>(d2[l])));
          assign(l, n);
          if (!active[l]) load(l, task[l]);
        }
      Problem::begin(st, gravity);
      deadline = next_deadline();
      continue;  // fresh lanes are checked at their step 0 before anything moves
    }
    Problem::advance(st, gravity, dt, starting(n));
    ++n;
  }
  src.hand_in(finished_pixels, finished_steps);
}

}  // namespace

template <int I>
void run_twin_lanes(const DivergenceSetup& s, Precision p, TwinTaskSource& src) {
  visit_map_kernel(p, s.body, [&]<Precision P, int>() { run_lanes<I, P>(s, src); });
}

// The kernels of this object's integrators: instantiating the table instantiates each
// run_twin_lanes<I>, which cpu_kernels.cpp declares and takes the address of.
template <int... I>
struct TwinLanesOf {
  static constexpr CpuKernel::Run runs[] = {&run_twin_lanes<I>...};
};
template struct TwinLanesOf<ORRERY_MAP_INTEGRATORS>;

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
