// SPDX-License-Identifier: MIT
// The CPU lanes of the map by perturbation (--deep perturbation; problems/divergence3/
// perturbed_twin.hpp): a client of the lanes' agent (lane_agent.hpp) like the plain map's
// (twin_lanes.cpp, which includes this file once per instruction set and integrator group).
// Each SIMD lane holds one pixel's differences from the frame's reference trajectory, in fp64;
// a lane refilled with a new pixel starts at the reference's step 0 while its neighbours are
// further on, so each lane reads the records of its own step (a gather per record word).
#pragma once

#include <algorithm>
#include <cmath>

#include "ensemble/cpu/lane_agent.hpp"
#include "ensemble/cpu/twin_task_source.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/perturbed_twin.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

#if !defined(ORRERY_CPU_KERNEL)
#error "compile with -DORRERY_CPU_KERNEL=<isa>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// One record pointer per lane.
template <class V>
struct LaneRecordCursors {
  const double* at[V::size()];
  V word(int w) const {
    return V([&](auto l) { return at[l][w]; });
  }
  void next() {
    for (auto& p : at) p += kReferenceRecordWords;
  }
};

template <int I>
struct PerturbedLanes {
  using V = stdx::native_simd<double>;
  using Mask = typename V::mask_type;
  using Problem = PerturbedTwin<map_integrator_t<I>, V>;
  using Cursors = LaneRecordCursors<V>;
  static constexpr int lanes = static_cast<int>(V::size());
  static constexpr int samples = 1;
  static constexpr int starter_steps = Problem::starter_steps;
  static constexpr bool stop_rule = true;

  PerturbedLanes(const DivergenceSetup& setup, TwinTaskSource& source)
      : s(setup), src(source), ref(*source.reference) {}

  const DivergenceSetup& s;
  TwinTaskSource& src;
  const ReferenceOrbit& ref;
  // A pixel runs the frame's steps, or as far as the reference goes (divergence_map.cpp
  // recomputes a pixel that outlives its reference).
  const std::int64_t steps = std::min(s.steps, ref.steps);
  const typename Problem::Gm gravity = Problem::gravity(s);
  const V dt = V(s.dt);
  const V dc2 = V(s.critical_distance2);
  typename Problem::State st;
  V d2;
  std::int64_t step_of[lanes] = {};  // each lane's step of its trajectory
  Tile tile;
  std::int64_t finished_pixels = 0, finished_steps = 0;

  // The records of lane l's step n: `first` evaluation of the step (evals_at_start + n·E), or
  // the one of its positions (n·E, the last of step n − 1, or the start's).
  Cursors cursors(std::int64_t offset_to_first) const {
    Cursors c;
    const std::int64_t last = std::max<std::int64_t>(ref.steps - 1, 0);
    for (int l = 0; l < lanes; ++l) {
      const std::int64_t n = std::min(step_of[l], last);
      c.at[l] = ref.records.data() +
                (offset_to_first + n * ref.evals_per_step) * kReferenceRecordWords;
    }
    return c;
  }

  bool next(std::int64_t& task) {
    if (tile.next == tile.size && !src.next_tile(tile, finished_pixels, finished_steps))
      return false;
    task = static_cast<std::int64_t>(tile.items[tile.next++]);
    return true;
  }
  void load(int l, std::int64_t task) {
    std::int64_t j = 0, k = 0;
    src.pixel_of(task, j, k);
    const PerturbedStart p = perturbed_start(s, j, k);
    for (int n = 0; n < kMapBodies; ++n)
      for (int c = 0; c < 3; ++c) {
        const bool varied = n == s.body;
        component(st.pixel.x[n], c)[l] = varied ? component(p.pixel, c) : 0.0;
        component(st.twin.x[n], c)[l] = varied ? component(p.twin, c) : 0.0;
        component(st.pixel.v[n], c)[l] = 0.0;
        component(st.twin.v[n], c)[l] = 0.0;
      }
    step_of[l] = 0;
  }
  void begin() { Problem::begin(st, gravity, cursors(0)); }
  Mask stopped() {
    d2 = s.body == 0   ? Problem::template separation2<0>(st)
         : s.body == 1 ? Problem::template separation2<1>(st)
                       : Problem::template separation2<2>(st);
    return !(d2 <= dc2);  // NaN compares false: a non-finite pixel stops
  }
  void sample(int, std::int64_t, int) {}
  void finish(int l, std::int64_t task, std::int64_t count, bool stopped) {
    src.counts[task] = static_cast<std::int32_t>(count);
    src.nonfinite[task] = stopped && !std::isfinite(static_cast<double>(d2[l])) ? 1 : 0;
    finished_pixels += 1;
    finished_steps += count;
  }
  void step(const Mask& starting) {
    Cursors c = cursors(ref.evals_at_start);
    if constexpr (starter_steps > 0)
      Problem::advance(st, gravity, c, dt, starting);
    else
      Problem::advance(st, gravity, c, dt, false);
    for (auto& n : step_of) ++n;
  }
  void run(std::int64_t) {}
  void end() { src.hand_in(finished_pixels, finished_steps); }
};

template <int I>
void run_perturbed_lanes(const DivergenceSetup& s, TwinTaskSource& src) {
  PerturbedLanes<I> lanes(s, src);
  run_lane_agent(lanes);
}

}  // namespace
}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
