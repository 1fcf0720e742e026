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
//
// With `volumes` (ChaosIndicatorOptions) the same D vectors are kept apart instead — each
// renormalised to unit length after every interval, none orthogonalised — and read as the
// generalised alignment indices, the volumes of the parallelepipeds of the first k unit vectors:
//
//   GALI_k(t) = |ŵ₁ ∧ … ∧ ŵ_k| = Π_{j≤k} R_jj,   ŵ_i = w_i/|w_i| = QR (a copy, by modified
//   Gram–Schmidt),   k = 1 … D (GALI_1 = 1)
//
// (Skokos, Bountis & Antonopoulos, Physica D 231, 30 (2007)). Expected, for N degrees of freedom
// (D = 2N): on a regular orbit GALI_k stays about constant for 2 ≤ k ≤ N and falls like
// t^{−2(k−N)} for N < k ≤ 2N; on a chaotic one GALI_k ∝ exp(−[(λ₁−λ₂) + … + (λ₁−λ_k)] t), so
// GALI_2 ∝ e^{−(λ₁−λ₂)t} as SALI; both to rounding (~10⁻¹⁶). Cost: the spectrum's step, D norms and
// a Gram–Schmidt of a copy per interval.
#pragma once

#include <cstdint>

#include "orrery/core/lane_log.hpp"
#include "orrery/ensemble/chaos/chaos_options.hpp"
#include "orrery/ensemble/chaos/deviation_vectors.hpp"

namespace orrery {

inline constexpr int kMaxSpectrumWords = 12;

template <class T, int D>
struct LyapunovSpectrum {
  static_assert(D <= kMaxSpectrumWords);
  static constexpr int vectors = D;
  static constexpr int outputs = D;

  T growth[D];  // Σ ln R_ii; with volumes GALI_1 … GALI_D
  bool volumes = false;

  ORRERY_HD void configure(const ChaosIndicatorOptions& o) { volumes = o.volumes; }

  ORRERY_HD void start(T (&w)[D][D]) {
    start_vectors(w);
    for (int i = 0; i < D; ++i) growth[i] = T(0);
    if (volumes)
      update(w, 0);
    else
      orthonormalise(w, nullptr);
  }

  ORRERY_HD void update(T (&w)[D][D], std::int64_t) {
    if (!volumes) return orthonormalise(w, growth);
    for (int j = 0; j < D; ++j) divide_column(w, j, column_norm(w, j));
    T q[D][D];
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) q[i][j] = w[i][j];
    T r[D];
    gram_schmidt(q, r);
    growth[0] = r[0];
    for (int j = 1; j < D; ++j) growth[j] = growth[j - 1] * r[j];
  }

  ORRERY_HD void read(T (&out)[outputs], const T& t, std::int64_t) const {
    for (int i = 0; i < D; ++i) out[i] = volumes ? growth[i] : growth[i] / t;
  }

 private:
  // Modified Gram–Schmidt, column by column: w ← Q, norm[j] = R_jj.
  ORRERY_HD static void gram_schmidt(T (&w)[D][D], T (&norm)[D]) {
    for (int j = 0; j < D; ++j) {
      for (int i = 0; i < j; ++i) {
        T r = w[0][i] * w[0][j];
        for (int c = 1; c < D; ++c) r = mul_add(w[c][i], w[c][j], r);
        for (int c = 0; c < D; ++c) w[c][j] = mul_add(-r, w[c][i], w[c][j]);
      }
      norm[j] = column_norm(w, j);
      divide_column(w, j, norm[j]);
    }
  }

  // w ← Q; adds ln R_jj to sum[j] when sum is given.
  ORRERY_HD static void orthonormalise(T (&w)[D][D], T* sum) {
    T n[D];
    gram_schmidt(w, n);
    if (sum)
      for (int j = 0; j < D; ++j) sum[j] = sum[j] + lane_log(n[j]);
  }
};

}  // namespace orrery
