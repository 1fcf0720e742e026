// SPDX-License-Identifier: MIT
// The Hénon–Heiles Hamiltonian (M. Hénon & C. Heiles, Astron. J. 69, 73 (1964)):
//
//   H = (px² + py²)/2 + V(x, y),   V = (x² + y²)/2 + x²y − y³/3
//   a = −∇V:   ax = −x − 2xy,   ay = −y − x² + y²
//
// Orbits are bounded below the escape energy 1/6 (the saddles of V); at E = 1/8 the section
// x = 0 shows islands of regular motion in a chaotic sea. The acceleration is four operations:
// ax = fma(−2x, y, −x) and ay = fma(−x, x, fma(y, y, −y)), for any lane type.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T>
ORRERY_HD void henon_heiles_acceleration(const T (&q)[2], T (&a)[2]) {
  const T x = q[0], y = q[1];
  a[0] = mul_add(broadcast<T>(-2.0) * x, y, -x);
  a[1] = mul_add(-x, x, mul_add(y, y, -y));
}

template <class T>
ORRERY_HD T henon_heiles_potential(const T& x, const T& y) {
  return broadcast<T>(0.5) * (x * x + y * y) + x * x * y - y * y * y / broadcast<T>(3.0);
}

template <class T>
ORRERY_HD T henon_heiles_energy(const T (&q)[2], const T (&p)[2]) {
  return broadcast<T>(0.5) * (p[0] * p[0] + p[1] * p[1]) + henon_heiles_potential(q[0], q[1]);
}

}  // namespace orrery
