// SPDX-License-Identifier: MIT
// The tree engine's list sums, compiled once per instruction set (ORRERY_CPU_KERNEL names the
// variant, CMake gives its -march). For each target of a group, SIMD lanes run along the lists
// (bodies, then cells) with the target broadcast:
//   body:  a += m d / r³,  φ −= m / r                              (d = x_s − x_i)
//   cell:  the same for its mass at its centre, plus −Q d / r⁵ + (5/2)(dᵀQd) d / r⁷ and
//          −½ dᵀQd / r⁵  (physics/multipole.hpp)
// with r² = |d|² + ε_i²/2 + ε_s²/2. 1/r comes from the hardware estimate refined by Newton
// steps to the format's precision (AVX-512, and AVX2 in fp32), or from the IEEE square root and
// division (generic): the tree's own error, ~10⁻⁴ at θ = 0.5, is far above either.
#include <cstddef>
#include <type_traits>

#include "nbody/lane_inverse_sqrt.hpp"
#include "orrery/core/simd.hpp"
#include "orrery/physics/multipole.hpp"
#include "orrery/physics/softened_pair.hpp"
#include "tree_kernel.hpp"

#ifndef ORRERY_CPU_KERNEL
#error "compile with -DORRERY_CPU_KERNEL=<name>"
#endif

namespace orrery::cpu::ORRERY_CPU_KERNEL {
namespace {

template <class R>
using Lanes = stdx::native_simd<R>;

template <class R>
R sum_lanes(const Lanes<R>& v) {
  return stdx::reduce(v);
}

template <class R>
void lists(const GroupTargets<R>& t, const SourceList<R>& bodies, const SourceList<R>& cells,
           bool quadrupole, R* ax, R* ay, R* az, R* phi) {
  using V = Lanes<R>;
  constexpr std::size_t W = V::size();
  for (std::size_t i = 0; i < t.count; ++i) {
    const V tx(t.x[i]), ty(t.y[i]), tz(t.z[i]), th(t.half_eps2[i]);
    V sx(R(0)), sy(R(0)), sz(R(0)), sp(R(0));
    for (std::size_t j = 0; j < bodies.size; j += W) {
      V x, y, z, m, h;
      x.copy_from(&bodies.x[j], stdx::element_aligned);
      y.copy_from(&bodies.y[j], stdx::element_aligned);
      z.copy_from(&bodies.z[j], stdx::element_aligned);
      m.copy_from(&bodies.mass[j], stdx::element_aligned);
      h.copy_from(&bodies.half_eps2[j], stdx::element_aligned);
      const V dx = x - tx, dy = y - ty, dz = z - tz;
      const V inv_r = lane_inverse_sqrt<R>(softened_distance2(dx, dy, dz, th + h));
      accumulate_monopole(dx, dy, dz, inv_r, m, sx, sy, sz, sp);
    }
    for (std::size_t j = 0; j < cells.size; j += W) {
      V x, y, z, m, h;
      x.copy_from(&cells.x[j], stdx::element_aligned);
      y.copy_from(&cells.y[j], stdx::element_aligned);
      z.copy_from(&cells.z[j], stdx::element_aligned);
      m.copy_from(&cells.mass[j], stdx::element_aligned);
      h.copy_from(&cells.half_eps2[j], stdx::element_aligned);
      const V dx = x - tx, dy = y - ty, dz = z - tz;
      const V inv_r = lane_inverse_sqrt<R>(softened_distance2(dx, dy, dz, th + h));
      if (quadrupole) {
        Quadrupole<V> q;
        q.xx.copy_from(&cells.qxx[j], stdx::element_aligned);
        q.xy.copy_from(&cells.qxy[j], stdx::element_aligned);
        q.xz.copy_from(&cells.qxz[j], stdx::element_aligned);
        q.yy.copy_from(&cells.qyy[j], stdx::element_aligned);
        q.yz.copy_from(&cells.qyz[j], stdx::element_aligned);
        q.zz.copy_from(&cells.qzz[j], stdx::element_aligned);
        accumulate_cell(dx, dy, dz, inv_r, m, q, sx, sy, sz, sp);
      } else {
        accumulate_monopole(dx, dy, dz, inv_r, m, sx, sy, sz, sp);
      }
    }
    ax[i] = sum_lanes(sx);
    ay[i] = sum_lanes(sy);
    az[i] = sum_lanes(sz);
    phi[i] = sum_lanes(sp);
  }
}

}  // namespace

extern const TreeKernelOps tree_kernel_ops;
const TreeKernelOps tree_kernel_ops{Lanes<float>::size(), &lists<double>, &lists<float>};

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
