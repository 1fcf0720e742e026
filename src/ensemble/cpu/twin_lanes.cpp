// SPDX-License-Identifier: MIT
// The CPU divergence-map kernel, compiled once per instruction set and group of map integrators
// (ORRERY_CPU_KERNEL names the variant, with CMake's -march for it; ORRERY_MAP_INTEGRATORS the
// comma-separated indices into ensemble/map_integrators.hpp that one object holds). One SIMD lane
// integrates one pixel's twin pair with the shared ORRERY_HD problem
// (problems/divergence3/twin_divergence.hpp); the lanes' agent (lane_agent.hpp) refills a lane
// whose pixel finishes at once, so every lane-step is useful work whatever the mix of early and
// late divergence.
#include <cmath>

#include "ensemble/cpu/lane_agent.hpp"
#include "ensemble/cpu/perturbed_lanes.hpp"
#include "ensemble/cpu/twin_task_source.hpp"
#include "orrery/core/simd.hpp"
#include "ensemble/map_kernel_dispatch.hpp"
#include "orrery/ensemble/map_integrators.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/ensemble/problems/divergence3/twin_start_dd.hpp"
#include "orrery/physics/precision_traits.hpp"

#if !defined(ORRERY_CPU_KERNEL) || !defined(ORRERY_MAP_INTEGRATORS)
#error "compile with -DORRERY_CPU_KERNEL=<isa> -DORRERY_MAP_INTEGRATORS=<index>,<index>,..."
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

// The lanes of a precision's real: a SIMD vector of it, or for double-double a pair of SIMD
// vectors of doubles (high and low parts), so the double-double lanes use the same instructions.
template <class R>
struct LanesOf {
  using type = stdx::native_simd<R>;
};
template <>
struct LanesOf<DoubleDouble<double>> {
  using type = DoubleDouble<stdx::native_simd<double>>;
};

template <class V>
auto at_most(const V& a, const V& b) {
  return a <= b;
}
template <class V>
auto at_most(const DoubleDouble<V>& a, const DoubleDouble<V>& b) {
  return less_equal(a, b);
}
template <class V, class R>
void put_lane(V& v, int l, const R& x) {
  v[l] = static_cast<typename V::value_type>(x);
}
template <class V>
void put_lane(DoubleDouble<V>& v, int l, const DoubleDouble<double>& x) {
  v.hi[l] = x.hi;
  v.lo[l] = x.lo;
}
template <class V>
double lane_value(const V& v, int l) {
  return static_cast<double>(v[l]);
}
template <class V>
double lane_value(const DoubleDouble<V>& v, int l) {
  return v.hi[l];
}

// The map's client of the lanes' agent (lane_agent.hpp): a task is a pixel, its start the twin
// pair of that pixel, its stop rule the separation beyond the critical distance, its record the
// int32 count (with whether the separation was not finite).
//
// The varied body is chosen at run time here, not compiled in as on the GPU (whose registers
// need the index): one kernel per precision, not three, with the same arithmetic, since only the
// start and the observable depend on the body, and the observable's switch keeps each index
// known at compile time.
template <int I, Precision P>
struct TwinLanes {
  using Traits = PrecisionTraits<P>;
  using R = typename Traits::Real;
  using V = typename LanesOf<R>::type;
  using Mask = decltype(at_most(V{}, V{}));
  using Problem = TwinDivergence<map_integrator_t<I>, V, typename Traits::InverseCube, 0>;
  static constexpr int lanes = static_cast<int>(Mask::size());
  static constexpr bool double_double = P == Precision::dd;
  static constexpr int samples = 1;
  static constexpr int starter_steps = Problem::starter_steps;
  static constexpr bool stop_rule = true;

  TwinLanes(const DivergenceSetup& setup, TwinTaskSource& source) : s(setup), src(source) {}

  const DivergenceSetup& s;
  TwinTaskSource& src;
  const std::int64_t steps = s.steps;
  const typename Problem::Gravity gravity = Problem::gravity(s);
  const V dt = V(R(s.dt));
  const V dc2 = V(R(s.critical_distance2));
  typename Problem::State st;
  V d2;  // the separations of the last stop check
  Tile tile;
  std::int64_t finished_pixels = 0, finished_steps = 0;

  bool next(std::int64_t& task) {
    if (tile.next == tile.size && !src.next_tile(tile, finished_pixels, finished_steps))
      return false;
    task = static_cast<std::int64_t>(tile.items[tile.next++]);
    return true;
  }
  template <class S>
  static void set_lane(BodyState<V, kMapBodies>& dst, const BodyState<S, kMapBodies>& x, int l) {
    for (int n = 0; n < kMapBodies; ++n) {
      put_lane(dst.x[n].x, l, x.x[n].x);
      put_lane(dst.x[n].y, l, x.x[n].y);
      put_lane(dst.x[n].z, l, x.x[n].z);
      put_lane(dst.v[n].x, l, x.v[n].x);
      put_lane(dst.v[n].y, l, x.v[n].y);
      put_lane(dst.v[n].z, l, x.v[n].z);
    }
  }
  void load(int l, std::int64_t task) {
    std::int64_t j = 0, k = 0;
    src.pixel_of(task, j, k);
    const auto ts = [&] {
      if constexpr (double_double)
        return twin_start_dd(s, j, k);
      else
        return twin_start(s, j, k);
    }();
    set_lane(st.base, ts.base, l);
    set_lane(st.twin, ts.twin, l);
  }
  void begin() { Problem::begin(st, gravity); }
  Mask stopped() {
    d2 = s.body == 0   ? Problem::template separation2<0>(st)
         : s.body == 1 ? Problem::template separation2<1>(st)
                       : Problem::template separation2<2>(st);
    return !at_most(d2, dc2);  // NaN compares false: a non-finite pixel stops
  }
  void sample(int, std::int64_t, int) {}
  void finish(int l, std::int64_t task, std::int64_t count, bool stopped) {
    src.counts[task] = static_cast<std::int32_t>(count);
    src.nonfinite[task] = stopped && !std::isfinite(lane_value(d2, l)) ? 1 : 0;
    finished_pixels += 1;
    finished_steps += count;
  }
  void step(const Mask& starting) {
    if constexpr (starter_steps > 0)
      Problem::advance(st, gravity, dt, starting);
    else
      Problem::advance(st, gravity, dt, false);
  }
  void run(std::int64_t) {}
  void end() { src.hand_in(finished_pixels, finished_steps); }
};

template <int I, Precision P>
void run_lanes(const DivergenceSetup& s, TwinTaskSource& src) {
  TwinLanes<I, P> lanes(s, src);
  run_lane_agent(lanes);
}

}  // namespace

template <int I>
void run_twin_lanes(const DivergenceSetup& s, Precision p, TwinTaskSource& src) {
  // Double-double is the CPU's alone (the deep zoom), and only its vector kernels' (AVX2 and
  // AVX-512; divergence_map_cpu.cpp refuses it on generic): its code is twice the others' to
  // compile. The other modes are every backend's.
#if defined(__AVX2__)
  if (p == Precision::dd) return run_lanes<I, Precision::dd>(s, src);
#endif
  if (src.reference) return run_perturbed_lanes<I>(s, src);  // --deep perturbation
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
