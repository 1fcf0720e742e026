// SPDX-License-Identifier: MIT
// Operations on K deviation vectors held as a D × K matrix of lane values (column k is w_k), for
// any lane type: the norms, rescalings and Gram–Schmidt steps the chaos indicators share
// (ensemble/chaos/*_indicator*.hpp), and the vectors a trajectory starts from.
#pragma once

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"

namespace orrery {

// |w_k|.
template <class T, int D, int K>
ORRERY_HD T column_norm(const T (&w)[D][K], int k) {
  T sum = w[0][k] * w[0][k];
  for (int i = 1; i < D; ++i) sum = mul_add(w[i][k], w[i][k], sum);
  return sqrt(sum);
}

// w_k ← w_k / n.
template <class T, int D, int K>
ORRERY_HD void divide_column(T (&w)[D][K], int k, const T& n) {
  const T inverse = T(1) / n;
  for (int i = 0; i < D; ++i) w[i][k] = w[i][k] * inverse;
}

// The smaller of a and b (a NaN in either gives a NaN: a trajectory that failed shows as one).
template <class T>
ORRERY_HD T lane_min(const T& a, const T& b) {
  return lane_select(a <= b, a, lane_select(b < a, b, a + b));
}
template <class T>
ORRERY_HD T lane_max(const T& a, const T& b) {
  return lane_select(a >= b, a, lane_select(b > a, b, a + b));
}

// The start of deviation vector k, before the indicator normalises it: column k of I + H, H the
// Hilbert matrix 1/(i + k + 1) (symmetric positive definite, so the columns are independent for
// any K ≤ D; a generic direction that no symmetry of a problem's coordinates makes special).
// Divisions of small integers: the same bits on every backend.
template <class T, int D, int K>
ORRERY_HD void start_vectors(T (&w)[D][K]) {
  for (int i = 0; i < D; ++i)
    for (int k = 0; k < K; ++k)
      w[i][k] = T(static_cast<lane_scalar_t<T>>(1.0 / (i + k + 1) + (i == k ? 1.0 : 0.0)));
}

}  // namespace orrery
