// SPDX-License-Identifier: MIT
// The Lyapunov spectrum from D deviation vectors, orthonormalised after every interval of τ by
// modified Gram–Schmidt (W = QR, W ← Q), the logarithms of R's diagonal summed:
//
//   λ_i(t) = (1/t) Σ_{j≤k} ln R_ii(jτ),   i = 1 … D,   t = kτ
//
// (Benettin, Galgani, Giorgilli & Strelcyn, Meccanica 15, 9 and 21 (1980); Shimada & Nagashima,
// Prog. Theor. Phys. 61, 1605 (1979)). Expected: for a Hamiltonian flow the exponents come in
// pairs ±λ (the tangent map is symplectic) that sum to zero, two of them zero (the flow's
// direction and the energy's gradient); a regular orbit has all λ_i → 0 like ln(t)/t. The
// ordering λ₁ ≥ λ₂ ≥ … holds in the limit, not at every finite time. Cost: D tangent vectors
// multiply the words of the step by D + 1; a Gram–Schmidt of D² D-vectors and D logarithms per
// interval. Offered for states of at most kMaxSpectrumWords words.
#pragma once

#include <cstdint>

#include "orrery/core/lane_log.hpp"
#include "orrery/ensemble/chaos/deviation_vectors.hpp"

namespace orrery {

inline constexpr int kMaxSpectrumWords = 12;

template <class T, int D>
struct LyapunovSpectrum {
  static_assert(D <= kMaxSpectrumWords);
  static constexpr int vectors = D;
  static constexpr int outputs = D;

  T growth[D];  // Σ ln R_ii

  ORRERY_HD void start(T (&w)[D][D]) {
    start_vectors(w);
    orthonormalise(w, nullptr);
    for (int i = 0; i < D; ++i) growth[i] = T(0);
  }

  ORRERY_HD void update(T (&w)[D][D], std::int64_t) { orthonormalise(w, growth); }

  ORRERY_HD void read(T (&out)[outputs], const T& t, std::int64_t) const {
    for (int i = 0; i < D; ++i) out[i] = growth[i] / t;
  }

 private:
  // Modified Gram–Schmidt, column by column; adds ln R_jj to sum[j] when sum is given.
  ORRERY_HD static void orthonormalise(T (&w)[D][D], T* sum) {
    for (int j = 0; j < D; ++j) {
      for (int i = 0; i < j; ++i) {
        T r = w[0][i] * w[0][j];
        for (int c = 1; c < D; ++c) r = mul_add(w[c][i], w[c][j], r);
        for (int c = 0; c < D; ++c) w[c][j] = mul_add(-r, w[c][i], w[c][j]);
      }
      const T n = column_norm(w, j);
      divide_column(w, j, n);
      if (sum) sum[j] = sum[j] + lane_log(n);
    }
  }
};

}  // namespace orrery
