// SPDX-License-Identifier: MIT
// One softened gravitational interaction, written once for every engine and lane type:
//
//   a_i += G m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2}
//
// with r² = fma(dz, dz, fma(dy, dy, fma(dx, dx, ε²))) and the factor m_j/(r²·√r²) (G is applied
// once per target, after the sum). Plummer softening: H. C. Plummer (1911); for the per-particle
// form ε_ij² = (ε_i² + ε_j²)/2 see Dehnen, MNRAS 324, 273 (2001).
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/core/vec3.hpp"

namespace orrery {

// Adds source j's pull on target i (unscaled by G) to `acc`. A source at the target's own
// position with ε = 0 must be skipped by the caller (r² = 0).
template <class T>
ORRERY_HD void accumulate_softened_pull(const Vec3<T>& target, const Vec3<T>& source,
                                        const T& mass, const T& eps2, Vec3<T>& acc) {
  const Vec3<T> d = source - target;
  const T r2 = mul_add(d.z, d.z, mul_add(d.y, d.y, mul_add(d.x, d.x, eps2)));
  const T k = mass / (r2 * sqrt(r2));
  acc = mul_add(k, d, acc);
}

}  // namespace orrery
