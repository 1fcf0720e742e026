// SPDX-License-Identifier: MIT
// The CPU divergence-map kernel, compiled once per instruction set (ORRERY_CPU_KERNEL names the
// variant; CMake gives each its -march). One SIMD lane integrates one pixel's twin pair with the
// shared ORRERY_HD step; when a pixel finishes, its lane takes the next pixel at once, so every
// lane-step is useful work whatever the mix of early and late divergence.
#include <cmath>
#include <limits>

#include "orrery/core/simd.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/physics/precision_traits.hpp"
#include "twin_task_source.hpp"

#ifndef ORRERY_CPU_KERNEL
#error "compile with -DORRERY_CPU_KERNEL=<name>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

template <Precision P, int Body>
void run_lanes(const DivergenceSetup& s, TwinTaskSource& src) {
  using Traits = PrecisionTraits<P>;
  using R = typename Traits::Real;
  using V = stdx::native_simd<R>;
  using Mask = typename V::mask_type;
  constexpr int L = static_cast<int>(V::size());
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  PairwiseGravity<kMapBodies, V, typename Traits::InverseCube> gravity;
  for (int n = 0; n < kMapBodies; ++n) gravity.gm[n] = V(static_cast<R>(s.gm[n]));
  const V dt(static_cast<R>(s.dt));
  const V dc2(static_cast<R>(s.critical_distance2));

  TwinState<V> st;
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
  const auto load = [&](int l, std::int64_t t) {
    std::int64_t j = 0, k = 0;
    src.pixel_of(t, j, k);
    const TwinStart ts = twin_start<Body>(s, j, k);
    set_lane(st.base, ts.base, l);
    set_lane(st.twin, ts.twin, l);
  };
  // Gives lane l the next task, starting at global step n; an idle lane keeps integrating a
  // finite copy of its last pixel so that it never feeds NaN or denormals to the vector units.
  const auto assign = [&](int l, std::int64_t n) {
    if (tile.begin == tile.end && !src.next_tile(tile, finished_pixels, finished_steps)) {
      active[l] = false;
      return;
    }
    task[l] = tile.begin++;
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

  for (int l = 0; l < L; ++l) assign(l, 0);
  if (stdx::none_of(active)) return;
  for (int l = 0; l < L; ++l)
    if (!active[l]) load(l, task[stdx::find_first_set(active)]);

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
      deadline = next_deadline();
      continue;
    }
    const V d2 = twin_separation2<Body>(st);
    const Mask diverged = !(d2 <= dc2) && active;  // NaN compares false: a non-finite pixel stops
    if (stdx::any_of(diverged)) {
      for (int l = 0; l < L; ++l)
        if (diverged[l]) {
          finish(l, n - start[l], !std::isfinite(static_cast<double>(d2[l])));
          assign(l, n);
          if (!active[l]) load(l, task[l]);
        }
      deadline = next_deadline();
      continue;  // fresh lanes are checked at their step 0 before anything moves
    }
    twin_advance(st, gravity, dt);
    ++n;
  }
  src.hand_in(finished_pixels, finished_steps);
}

template <Precision P>
void run_precision(const DivergenceSetup& s, TwinTaskSource& src) {
  switch (s.body) {
    case 0: run_lanes<P, 0>(s, src); break;
    case 1: run_lanes<P, 1>(s, src); break;
    default: run_lanes<P, 2>(s, src); break;
  }
}

}  // namespace

void run_twin_lanes(const DivergenceSetup& s, Precision p, TwinTaskSource& src) {
  switch (p) {
    case Precision::fp64: run_precision<Precision::fp64>(s, src); break;
    case Precision::fp32: run_precision<Precision::fp32>(s, src); break;
    case Precision::mixed: run_precision<Precision::mixed>(s, src); break;
  }
}

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
