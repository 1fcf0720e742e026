// SPDX-License-Identifier: MIT
// The smaller alignment index of two deviation vectors w₁, w₂, each renormalised to unit length
// after every interval of τ (= `every` steps of h):
//
//   SALI(t) = min(|ŵ₁ + ŵ₂|, |ŵ₁ − ŵ₂|),   ŵ = w/|w|,   0 ≤ SALI ≤ √2
//
// (Skokos, J. Phys. A 34, 10029 (2001); Skokos, Antonopoulos, Bountis & Vrahatis, J. Phys. A 37,
// 6269 (2004)). Expected: on a chaotic orbit both vectors turn towards the most unstable direction
// and SALI → 0 exponentially, as e^{−(λ₁ − λ₂)t} (λ₁, λ₂ the two largest Lyapunov exponents), to
// rounding (~10⁻¹⁶) — an orbit with SALI < 10⁻⁸ is called chaotic in the literature; on a regular
// orbit of a two-degree-of-freedom Hamiltonian both tend to the torus' tangent space and SALI
// oscillates about a positive value. Cost: two tangent vectors triple the words of the step;
// two norms and two divisions per interval.
#pragma once

#include <cstdint>

#include "orrery/ensemble/chaos/chaos_options.hpp"
#include "orrery/ensemble/chaos/deviation_vectors.hpp"

namespace orrery {

template <class T, int D>
struct SaliIndicator {
  static constexpr int vectors = 2;
  static constexpr int outputs = 1;
  static constexpr int sali = 0;

  T value;

  ORRERY_HD void configure(const ChaosIndicatorOptions&) {}

  ORRERY_HD void start(T (&w)[D][2]) {
    start_vectors(w);
    update(w, 0);
  }

  ORRERY_HD void update(T (&w)[D][2], std::int64_t) {
    divide_column(w, 0, column_norm(w, 0));
    divide_column(w, 1, column_norm(w, 1));
    T plus = T(0), minus = T(0);
    for (int i = 0; i < D; ++i) {
      const T p = w[i][0] + w[i][1], m = w[i][0] - w[i][1];
      plus = mul_add(p, p, plus);
      minus = mul_add(m, m, minus);
    }
    value = lane_min(sqrt(plus), sqrt(minus));
  }

  ORRERY_HD void read(T (&out)[outputs], const T&, std::int64_t) const { out[sali] = value; }
};

}  // namespace orrery
