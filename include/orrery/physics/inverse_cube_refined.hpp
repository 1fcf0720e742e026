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
// Evaluation, the same text for the CPU kernels and the GPU's fp64 factor (inverse_cube.hpp):
//   y₂ = y₀·y₀;  e = fma(−r², y₂, 1);  c = y₂·y₀ (times m for the CPU's m·r⁻³);
//   P = c_1 + e(c_2 + … + e·c_T) (Horner, fused);  k = fma(c, e·P, c).
// Roundings: y₀² (its error enters e and y₀³ with opposite signs, a net ½ ulp), y₀³, m·y₀³, e·P
// and the final fused multiply-add (one each, e·P's scaled by |e| ≤ 2⁻¹⁰), the polynomial's own
// errors scaled by |e|: |k̂ − k| ≤ 3.5 u·k + truncation (u = 2⁻⁵³ or 2⁻²⁴), against 3 u for
// m / (r²·√r²). The result is finite and accurate wherever y₀³ is a normal number: r² > 2⁻⁶⁸²
// (fp64), 2⁻⁸⁴ (fp32).
//
// Reference: the series is the binomial expansion of (1 − e)^{−3/2}; for higher-order
// reciprocal square-root refinement see J.-M. Muller et al., Handbook of Floating-Point
// Arithmetic (2nd ed., 2018), §5.5 and §4.9.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// c_k = (2k+1)!! / (2^k k!) for k = 1 … 6, exact in every binary format.
ORRERY_HD constexpr float inverse_cube_series_coefficient(int k) {
  return k == 1 ? 1.5f
       : k == 2 ? 1.875f
       : k == 3 ? 2.1875f
       : k == 4 ? 2.4609375f
       : k == 5 ? 2.70703125f
                : 2.9326171875f;
}

// P(e) = c_K + e·(c_{K+1} + … + e·c_Terms), Horner with fused multiply-adds.
template <int K, int Terms, class T>
ORRERY_HD T inverse_cube_series_from(const T& e) {
  if constexpr (K == Terms)
    return T(inverse_cube_series_coefficient(K));
  else
    return mul_add(inverse_cube_series_from<K + 1, Terms>(e), e,
                   T(inverse_cube_series_coefficient(K)));
}

// `cube`·(1 − e)^{−3/2}, keeping the terms e¹ … e^Terms: fma(cube, e·P(e), cube).
template <int Terms, class T>
ORRERY_HD T refine_cube(const T& cube, const T& e) {
  static_assert(Terms >= 1 && Terms <= 6, "coefficients are tabulated up to e^6");
  return mul_add(cube, e * inverse_cube_series_from<1, Terms>(e), cube);
}

// (r²)^{−3/2} from y0 ≈ (r²)^{−1/2}: the GPU's fp64 factor (InverseCubeFast, two terms).
template <int Terms, class T>
ORRERY_HD T inverse_cube_refined(const T& r2, const T& y0) {
  const T y2 = y0 * y0;
  const T e = mul_add(-r2, y2, T(1));
  return refine_cube<Terms>(y2 * y0, e);
}

// m·(r²)^{−3/2} from y0 ≈ (r²)^{−1/2}: the CPU direct engine's factor.
template <int Terms, class T>
ORRERY_HD T mass_over_cube_refined(const T& r2, const T& y0, const T& m) {
  const T y2 = y0 * y0;
  const T e = mul_add(-r2, y2, T(1));
  return refine_cube<Terms>(m * (y2 * y0), e);
}

}  // namespace orrery
