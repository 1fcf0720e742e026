// SPDX-License-Identifier: MIT
// One softened gravitational interaction, written once for every engine and lane type:
//
//   a_i += G m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2}
//
// with r² = fma(dz, dz, fma(dy, dy, fma(dx, dx, ε²))) and the factor m_j/(r²·√r²) (G is applied
// once per target, after the sum), and the pair's potential term m_i m_j/√r². Plummer
// softening: H. C. Plummer (1911); for the per-particle form ε_ij² = (ε_i² + ε_j²)/2 see
// Dehnen, MNRAS 324, 273 (2001).
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/core/vec3.hpp"

namespace orrery {

// r² + ε² = fma(dz, dz, fma(dy, dy, fma(dx, dx, ε²))), for a scalar or a SIMD lane type.
template <class T>
ORRERY_HD T softened_distance2(const T& dx, const T& dy, const T& dz, const T& eps2) {
  return mul_add(dz, dz, mul_add(dy, dy, mul_add(dx, dx, eps2)));
}

// m / (r²·√r²): square root, product and quotient each correctly rounded, so the same bits on
// every machine and lane type.
template <class T>
ORRERY_HD T mass_over_cube_exact(const T& r2, const T& m) {
  return m / (r2 * sqrt(r2));
}

// The pair's term of the potential energy, m_i m_j / √(r² + ε²) (unscaled by −G), correctly
// rounded in the same way.
template <class T>
ORRERY_HD T pair_potential_term(const T& mi, const T& mj, const T& r2) {
  return mi * mj / sqrt(r2);
}

// A softened body's term in a potential summed over every body, itself included (a tree walk
// meets each target among its own leaf's bodies): m / √(ε²/2 + ε²/2) = m/ε, which the caller
// adds back to remove it; 0 without softening, where the walk skipped it (r² = 0).
template <class T>
ORRERY_HD T own_softened_potential(const T& mass, const T& half_eps2) {
  return half_eps2 > T(0) ? mass / sqrt(half_eps2 + half_eps2) : T(0);
}

// Adds source j's pull on target i (unscaled by G) to `acc`. A source at the target's own
// position with ε = 0 must be skipped by the caller (r² = 0).
template <class T>
ORRERY_HD void accumulate_softened_pull(const Vec3<T>& target, const Vec3<T>& source,
                                        const T& mass, const T& eps2, Vec3<T>& acc) {
  const Vec3<T> d = source - target;
  const T r2 = softened_distance2(d.x, d.y, d.z, eps2);
  acc = mul_add(mass_over_cube_exact(r2, mass), d, acc);
}

}  // namespace orrery
