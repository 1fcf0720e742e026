// SPDX-License-Identifier: MIT
// A pixel's pair of systems in double-double (--precision dd, the deep zoom): the varied body at
//
//   u_j = (u_min + u_min_low) + (u_span·j)/W,   v_k = (v_min + v_min_low) + (v_span·k)/H,
//
// the window's low end in double-double plus the pixel's offset, which fp64 holds to its own
// relative precision (the offset is at most the span); the twin is that system with the varied
// body moved by the shift, added in double-double. In a window fp64 resolves the starts differ
// from the fp64 grid's by its rounding of u_min + offset, half an fp64 unit at most.
#pragma once

#include <cstdint>

#include "orrery/core/double_double.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"

namespace orrery {

struct TwinStartDd {
  BodyState<DoubleDouble<double>, kMapBodies> base, twin;
};

inline Vec3<DoubleDouble<double>> as_double_double(const Vec3d& a) {
  return {a.x, a.y, a.z};
}

inline TwinStartDd twin_start_dd(const DivergenceSetup& s, std::int64_t j, std::int64_t k) {
  using D = DoubleDouble<double>;
  TwinStartDd t;
  for (int n = 0; n < kMapBodies; ++n) {
    t.base.x[n] = as_double_double(s.x0[n]);
    t.base.v[n] = as_double_double(s.v0[n]);
  }
  Vec3<D>& x = t.base.x[s.body];
  component(x, s.axis_u) =
      D(s.u_min, s.u_min_low) + D((s.u_span_dd * static_cast<double>(j)) / s.width);
  component(x, s.axis_v) =
      D(s.v_min, s.v_min_low) + D((s.v_span_dd * static_cast<double>(k)) / s.height);
  t.twin = t.base;
  t.twin.x[s.body] = x + as_double_double(s.shift);
  return t;
}

}  // namespace orrery
