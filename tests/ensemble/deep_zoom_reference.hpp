// SPDX-License-Identifier: MIT
// The deep zoom's arbitrary-precision reference, shared by the tests of the double-double map
// (deep_zoom_test.cpp) and of the map by perturbation (perturbed_zoom_test.cpp): the map's own
// loop over the map's problem code (twin_divergence.hpp) with every number an MPFR float, and
// the small test system.
//
// The system is the Pythagorean three-body problem (masses 3, 4, 5 at rest at (1, 3), (−2, −1),
// (1, −1); Burrau 1913, Szebehely & Peters 1967), body 2 varied: its first close encounter
// stretches a separation 10¹¹-fold within about two thousand rk4 steps of 10⁻³, so every
// pixel's count ends inside a test's time.
#pragma once

#include <mpreal.h>

#include <cstdint>

#include "orrery/core/double_double.hpp"
#include "orrery/core/mpreal_lane_math.hpp"
#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/ensemble/problems/divergence3/twin_divergence.hpp"
#include "orrery/jobs/zoom_job.hpp"

namespace orrery::deep_zoom_reference {

using mpfr::mpreal;
using MpState = BodyState<mpreal, kMapBodies>;

// A grid × grid window `width` wide around (−2, −1): ends exact in double-double (the centre is
// an fp64 number). The twin a hundredth of the window away (finer than the pixels, as a zoom's
// scaled shift is), the critical distance 10⁷ times that: the first close encounter stretches
// it so far.
inline DivergenceMapParams pythagorean_window(double width, std::int32_t grid) {
  DivergenceMapParams p;
  p.width = p.height = grid;
  p.steps = 4000;
  p.dt = 0.001;
  p.integrator = "rk4";
  p.critical_distance = width * 1e5;
  p.masses = {3, 4, 5};
  p.g = 1;
  p.positions = {1, 3, 0, -2, -1, 0, 1, -1, 0};
  p.velocities = {};
  p.varied_body = 2;
  p.shift = {width / 100, width / 100, width / 100};
  const ZoomWindow w = zoom_window({-2.0, -1.0}, width, grid, grid);
  p.x_range = w.x_range;
  p.y_range = w.y_range;
  p.x_range_low = w.x_range_low;
  p.y_range_low = w.y_range_low;
  return p;
}

inline mpreal exact(const DoubleDouble<double>& x) { return mpreal(x.hi) + mpreal(x.lo); }

inline MpState exact(const BodyState<DoubleDouble<double>, kMapBodies>& from) {
  MpState to;
  for (int n = 0; n < kMapBodies; ++n) {
    to.x[n] = {exact(from.x[n].x), exact(from.x[n].y), exact(from.x[n].z)};
    to.v[n] = {exact(from.v[n].x), exact(from.v[n].y), exact(from.v[n].z)};
  }
  return to;
}

// The count of one pixel whose systems start at `base` and `twin`, every number an MPFR float
// of the current default precision (set it before forming the starts).
template <class Table>
std::int32_t mpfr_count(const DivergenceSetup& s, const MpState& base, const MpState& twin) {
  using Map = TwinDivergence<Table, mpreal, InverseCubeExact, 1>;
  typename Map::State st;
  st.base = base;
  st.twin = twin;
  const typename Map::Gravity g = Map::gravity(s);
  Map::begin(st, g);
  const mpreal dt = s.dt, dc2 = s.critical_distance2;
  for (std::int64_t n = 0; n < s.steps; ++n) {
    if (!(Map::separation2(st) <= dc2)) return static_cast<std::int32_t>(n);
    Map::advance(st, g, dt, n < Map::starter_steps);
  }
  return static_cast<std::int32_t>(s.steps);
}

}  // namespace orrery::deep_zoom_reference
