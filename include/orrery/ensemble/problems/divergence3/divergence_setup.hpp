// SPDX-License-Identifier: MIT
// The plain data every divergence-map backend works from, derived once from the parameters,
// and the start of a pixel's trajectory pair. Shared by the CPU and CUDA backends.
//
// Pixel (j, k) starts the varied body at u_j = u_min + (u_span·j)/W, v_k = v_min + (v_span·k)/H
// on the chosen plane (u_span = u_max − u_min), its third coordinate from its position
// parameter; the twin is the same system with the varied body moved by the shift vector.
#pragma once

#include <cstdint>

#include "orrery/core/vec3.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery {

struct DivergenceSetup {
  std::int32_t width, height;
  std::int64_t steps;
  double dt;
  double critical_distance2;  // d_c², compared with |x_b − x_b'|²
  double u_min, u_span, v_min, v_span;
  int axis_u, axis_v;  // the coordinates of the varied body that the pixel sets
  int body;            // the varied body, 0-based
  int integrator;      // index into the map integrators (ensemble/map_integrators.hpp)
  double gm[kMapBodies];
  Vec3d x0[kMapBodies];
  Vec3d v0[kMapBodies];
  Vec3d shift;
  // The window in double-double for --precision dd (twin_start_dd.hpp): the low parts of u_min
  // and v_min, and the spans formed from the ends in double-double. Last, so that the fields
  // the GPU kernels read keep their places.
  double u_min_low, v_min_low, u_span_dd, v_span_dd;
};

DivergenceSetup make_divergence_setup(const DivergenceMapParams& params);

ORRERY_HD Vec3d pixel_start(const DivergenceSetup& s, std::int64_t j, std::int64_t k) {
  Vec3d x = s.x0[s.body];
  component(x, s.axis_u) = s.u_min + (s.u_span * static_cast<double>(j)) / s.width;
  component(x, s.axis_v) = s.v_min + (s.v_span * static_cast<double>(k)) / s.height;
  return x;
}

// The pair of systems of one pixel, in fp64; backends convert to their state type.
struct TwinStart {
  BodyState<double, kMapBodies> base, twin;
};

// For a varied body known at compile time (kernels are templated on it), so that on the GPU the
// start never passes through a run-time-indexed, local-memory array.
template <int Body>
ORRERY_HD TwinStart twin_start(const DivergenceSetup& s, std::int64_t j, std::int64_t k) {
  TwinStart t;
  for (int n = 0; n < kMapBodies; ++n) {
    t.base.x[n] = s.x0[n];
    t.base.v[n] = s.v0[n];
  }
  t.base.x[Body] = pixel_start(s, j, k);
  t.twin = t.base;
  t.twin.x[Body] = t.base.x[Body] + s.shift;
  return t;
}

ORRERY_HD TwinStart twin_start(const DivergenceSetup& s, std::int64_t j, std::int64_t k) {
  switch (s.body) {
    case 0: return twin_start<0>(s, j, k);
    case 1: return twin_start<1>(s, j, k);
    default: return twin_start<2>(s, j, k);
  }
}

}  // namespace orrery
