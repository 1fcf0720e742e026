// SPDX-License-Identifier: MIT
// The pair factor of Newtonian gravity, k(r²) = 1 / (r² √r²) = 1/|r|³, in the variants the
// precision modes name. Each is a policy type used by the right-hand sides, so that a mode is a
// template argument and never a silent change of arithmetic.
#pragma once

#include <type_traits>

#include "orrery/core/dual.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/physics/inverse_cube_refined.hpp"

namespace orrery {

// k = 1 / (r² · √r²): square root, product and quotient each correctly rounded, hence the same
// bits on any IEEE machine, CPU or GPU.
struct InverseCubeExact {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
    return T(1) / (r2 * sqrt(r2));
  }
};

// The GPU's fast factor. fp64: from the hardware estimate y ≈ 1/√r² (MUFU.RSQ64H, relative
// error below 2^−20), with e = 1 − r²y² the exact k = y³(1 − e)^(−3/2) is expanded as
//   k = y³ (1 + e (3/2 + 15/8 e))
// (inverse_cube_refined.hpp with two terms: the same text as the CPU kernels' factor), whose
// truncation error (35/16)e³ < 2^−58 is below an ulp: 6 fp64 instructions and no branch, fewer
// and closer to the exact factor than rsqrt() cubed (docs/internals/map-gpu.md gives both). r² = 0,
// ∞ or below 2^−1022 give NaN, which the divergence map reports as a non-finite pixel (the exact
// factor gives ∞ or 0 there; both mean bodies that collided or flew apart). fp32: rsqrtf cubed
// (MUFU.RSQ). Host code, which has no such instruction, evaluates the exact formula.
struct InverseCubeFast {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, double>) {
      double y;
      asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(r2));
      return inverse_cube_refined<2>(r2, y);
    } else {
      const float y = ::rsqrtf(r2);
      return y * y * y;
    }
#else
    return InverseCubeExact{}(r2);
#endif
  }
  // On dual numbers (tangent dynamics, ensemble/chaos/tangent_system.hpp): the value as above and
  // its derivative dk = −(3/2) (k / r²) d(r²), with 1/r² = y²(1 − e)⁻¹ ≈ y²(1 + e + e²) from the
  // same estimate y (truncation e³ < 2⁻⁶⁰): about ten fp64 instructions, where the exact
  // factor's square root and two quotients on duals cost several times that on a GPU. fp64 on
  // the device only; elsewhere the exact factor.
  template <class T, int K>
  ORRERY_HD Dual<T, K> operator()(const Dual<T, K>& r2) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, double>) {
      double y;
      asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(r2.v));
      // y², e and the cube as inverse_cube_refined<2> forms them: the value's bits are the
      // plain factor's.
      const double y2 = y * y, e = mul_add(-r2.v, y2, 1.0);
      Dual<T, K> k;
      k.v = refine_cube<2>(y2 * y, e);
      const double slope = -1.5 * k.v * mul_add(y2, e * (1.0 + e), y2);
      for (int i = 0; i < K; ++i) k.d[i] = slope * r2.d[i];
      return k;
    }
#endif
    return InverseCubeExact{}(r2);
  }
};

// The factor evaluated in a narrower type `Factor` (float for the "mixed" mode: state in fp64,
// the 1/r³ factor in fp32, as in the published mixed-precision divergence maps).
template <class Factor, class Formula = InverseCubeExact>
struct InverseCubeIn {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
    using F = rebind_t<Factor, T>;
    return convert<T>(Formula{}(convert<F>(r2)));
  }
};

}  // namespace orrery
