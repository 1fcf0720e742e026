// SPDX-License-Identifier: MIT
// The Barnes–Hut opening test of a group walk, written once for the CPU walk
// (cpu/tree_walk.hpp) and the GPU walk (cuda/tree_walk.cu): a cell of size s whose centre of
// mass lies at distance d from the box of a group of targets is taken whole when s < θ d
// (J. Barnes, J. Comput. Phys. 87, 161, 1990), compared squared: s² < θ² d².
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// d² from the point (x, y, z) to the box [lo, hi] (0 inside).
template <class T>
ORRERY_HD T distance2_to_box(const T (&lo)[3], const T (&hi)[3], T x, T y, T z) {
  const T p[3] = {x, y, z};
  T d2 = T(0);
  for (int a = 0; a < 3; ++a) {
    const T d = p[a] < lo[a] ? lo[a] - p[a] : p[a] > hi[a] ? p[a] - hi[a] : T(0);
    d2 = mul_add(d, d, d2);
  }
  return d2;
}

// Whether a cell of squared size `size2` at squared distance `d2` from the group is taken whole.
template <class T>
ORRERY_HD bool taken_whole(T size2, T theta2, T d2) {
  return size2 < theta2 * d2;
}

}  // namespace orrery
