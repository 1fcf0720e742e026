// SPDX-License-Identifier: MIT
// The pair factor m·r⁻³ = m·(r²)^{−3/2} from a hardware estimate y₀ ≈ (r²)^{−1/2} (AVX-512
// vrsqrt14, |δ| < 2⁻¹⁴; SSE/AVX rsqrtps, |δ| ≤ 1.5·2⁻¹²), without a square root or a division,
// which are what limits the IEEE path (the divider retires about one of each per 4–8 cycles).
//
// With y₀ = (r²)^{−1/2}(1 + δ) and e = 1 − r²y₀² = −2δ − δ² (one fused multiply-add),
//
//   (r²)^{−3/2} = y₀³ (1 − e)^{−3/2} = y₀³ Σ_k c_k e^k,   c_k = (2k+1)!! / (2^k k!)
//               = y₀³ (1 + 3/2 e + 15/8 e² + 35/16 e³ + 315/128 e⁴ + 693/256 e⁵ + …),
//
// the binomial series; it is one higher-order (Householder) step in place of repeated
// Newton–Raphson steps, and it goes straight to the cube, which saves two multiplies.
// Truncating after e^T leaves a relative error c_{T+1}|e|^{T+1}:
//   vrsqrt14, fp64, T = 4:  |e| ≤ 2⁻¹³ → 2.7·2⁻⁶⁵ (0.001 ulp)
//   vrsqrt14, fp32, T = 2:  |e| ≤ 2⁻¹³ → 2.2·2⁻³⁹ (0.0001 ulp)
//   rsqrtps,  fp32, T = 2:  |e| ≤ 3·2⁻¹² → 2⁻³⁰ (0.015 ulp)
//   rsqrtps,  fp64, T = 5:  |e| ≤ 3·2⁻¹² → 2⁻⁶¹ (0.005 ulp)
// Roundings: y₀² (its error enters e and y₀³ with opposite signs, a net ½ ulp), y₀³, m·y₀³ and
// the final fused multiply-add (one each), the polynomial's own errors scaled by |e| ≤ 2⁻¹⁰:
// |k̂ − k| ≤ 3.5 u·k + truncation (u = 2⁻⁵³ or 2⁻²⁴), against 3 u for m / (r²·√r²). The
// result is finite and accurate wherever y₀³ is a normal number: r² > 2⁻⁶⁸² (fp64), 2⁻⁸⁴ (fp32).
//
// Reference: the series is the binomial expansion of (1 − e)^{−3/2}; for higher-order
// reciprocal square-root refinement see J.-M. Muller et al., Handbook of Floating-Point
// Arithmetic (2nd ed., 2018), §5.5 and §4.9.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// m·(r²)^{−3/2} from y0 ≈ (r²)^{−1/2}, keeping the terms e¹ … e^Terms of the series.
template <int Terms, class T>
ORRERY_HD T mass_over_cube_refined(const T& r2, const T& y0, const T& m) {
  static_assert(Terms >= 1 && Terms <= 6, "coefficients are tabulated up to e^6");
  // c_1 … c_6, exact in every binary format (float converts to any lane type without loss).
  constexpr float c[] = {1.5f, 1.875f, 2.1875f, 2.4609375f, 2.70703125f, 2.9326171875f};
  const T t = y0 * y0;
  const T e = mul_add(-r2, t, T(1));
  const T my3 = m * (t * y0);
  T p = T(c[Terms - 1]);
  ORRERY_UNROLL
  for (int k = Terms - 2; k >= 0; --k) p = mul_add(p, e, T(c[k]));
  return mul_add(my3 * e, p, my3);
}

}  // namespace orrery
