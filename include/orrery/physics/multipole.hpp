// SPDX-License-Identifier: MIT
// The far field of a cell of bodies, written once for the tree engines of every backend and lane
// type. For a cell of mass M, centre of mass R and traceless quadrupole
//   Q_ab = Σ_k m_k (3 s_a s_b − |s|² δ_ab),   s = x_k − R,
// the potential and acceleration at a target x, with d = R − x and r² = |d|² + ε², are
//   φ = −G [ M / r + ½ dᵀQd / r⁵ ],
//   a =  G [ M d / r³ − Q d / r⁵ + (5/2) (dᵀQd) d / r⁷ ]
// (the Taylor expansion of −G Σ m_k / |x_k − x| about R to second order; the dipole vanishes
// about the centre of mass). Plummer softening enters through r, as in the monopole of a single
// body; the quadrupole term of a softened cell is the usual approximation (J. Barnes & P. Hut,
// Nature 324, 446, 1986; L. Hernquist, ApJS 64, 715, 1987; J. Bédorf et al., J. Comput. Phys.
// 231, 2825, 2012). Moments of a parent come from its children by the parallel-axis theorem:
//   Q_ab(R) = Σ_c [ Q^c_ab + M_c (3 δ_a δ_b − |δ|² δ_ab) ],   δ = R_c − R.
// G is applied by the caller, once per target.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// The six independent components of a symmetric traceless 3×3 tensor (zz = −xx − yy is kept
// anyway: it saves an addition in the inner loop and the tensor stays exactly symmetric).
template <class S>
struct Quadrupole {
  S xx{}, xy{}, xz{}, yy{}, yz{}, zz{};
};

// Adds the quadrupole of a point mass m at offset s from the centre, m (3 s sᵀ − |s|² I).
template <class S>
ORRERY_HD void add_point_quadrupole(Quadrupole<S>& q, S m, S sx, S sy, S sz) {
  const S s2 = sx * sx + sy * sy + sz * sz;
  q.xx += m * (S(3) * sx * sx - s2);
  q.yy += m * (S(3) * sy * sy - s2);
  q.zz += m * (S(3) * sz * sz - s2);
  q.xy += m * (S(3) * sx * sy);
  q.xz += m * (S(3) * sx * sz);
  q.yz += m * (S(3) * sy * sz);
}

// Adds a child's quadrupole (about its own centre, offset δ from the parent's) to the parent's.
template <class S>
ORRERY_HD void add_child_quadrupole(Quadrupole<S>& parent, const Quadrupole<S>& child,
                                    S child_mass, S dx, S dy, S dz) {
  parent.xx += child.xx;
  parent.xy += child.xy;
  parent.xz += child.xz;
  parent.yy += child.yy;
  parent.yz += child.yz;
  parent.zz += child.zz;
  add_point_quadrupole(parent, child_mass, dx, dy, dz);
}

// The monopole term of a source of mass m at d = R − x, given inv_r = 1/r (computed by the
// caller however its hardware does it best): acc += m d / r³, phi −= m / r (unscaled by G).
template <class T, class S>
ORRERY_HD void accumulate_monopole(const T& dx, const T& dy, const T& dz, const T& inv_r,
                                   const S& m, T& ax, T& ay, T& az, T& phi) {
  const T m_r = T(m) * inv_r;
  const T m_r3 = m_r * inv_r * inv_r;
  ax = mul_add(m_r3, dx, ax);
  ay = mul_add(m_r3, dy, ay);
  az = mul_add(m_r3, dz, az);
  phi = phi - m_r;
}

// The whole far field of a cell at d = R − x, monopole and quadrupole in one expression. With
// u = 1/r² and s = (dᵀQd) u²,
//   acc += (M + (5/2) s) d / r³ − Q d u / r³,   phi −= (M + ½ s) / r:
// one radial factor times d plus one term along Q d, 15 operations after Q d and dᵀQd (the two
// terms summed apart take 19), which is what an interaction-bound walk is made of.
template <class T, class S>
ORRERY_HD void accumulate_cell(const T& dx, const T& dy, const T& dz, const T& inv_r, const S& m,
                               const Quadrupole<S>& q, T& ax, T& ay, T& az, T& phi) {
  const T qx = mul_add(T(q.xz), dz, mul_add(T(q.xy), dy, T(q.xx) * dx));
  const T qy = mul_add(T(q.yz), dz, mul_add(T(q.yy), dy, T(q.xy) * dx));
  const T qz = mul_add(T(q.zz), dz, mul_add(T(q.yz), dy, T(q.xz) * dx));
  const T dqd = mul_add(qz, dz, mul_add(qy, dy, qx * dx));
  const T u = inv_r * inv_r;
  const T s = dqd * (u * u);
  const T inv_r3 = inv_r * u;
  const T radial = inv_r3 * mul_add(T(2.5f), s, T(m));
  const T minus_inv_r5 = -(inv_r3 * u);
  ax = mul_add(radial, dx, mul_add(minus_inv_r5, qx, ax));
  ay = mul_add(radial, dy, mul_add(minus_inv_r5, qy, ay));
  az = mul_add(radial, dz, mul_add(minus_inv_r5, qz, az));
  phi = mul_add(-inv_r, mul_add(T(0.5f), s, T(m)), phi);
}

}  // namespace orrery
