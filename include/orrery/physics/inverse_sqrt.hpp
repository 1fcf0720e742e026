// SPDX-License-Identifier: MIT
// 1/√x and 1/x^{3/2} for the GPU's force kernels, written once: fp32 the hardware's
// rsqrt.approx.ftz.f32 (at most 2 ulp, PTX ISA "rsqrt"; flushing subnormal r² to zero saves the
// three instructions that rescale them, and r² + ε² of two bodies is never subnormal); fp64 the
// hardware's approximate rsqrt.approx.f64 (about 2⁻²² relative), refined for 1/√x by two Newton
// steps,
//   y ← y + y/2 · (1 − x y²)   (each squares the relative error),
// and for 1/x^{3/2} by the series of physics/inverse_cube_refined.hpp (six operations instead of
// ten). On the host (where this is compiled for tests) the IEEE formulas.
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/physics/inverse_cube_refined.hpp"

namespace orrery {

template <class T>
ORRERY_HD T newton_inverse_sqrt_step(T x, T y) {
  const T e = mul_add(-x, y * y, T(1));
  return mul_add(y * T(0.5f), e, y);
}

ORRERY_HD float fast_inverse_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return 1.0f / sqrt(x);
#endif
}

ORRERY_HD double fast_inverse_sqrt(double x) {
#if defined(__CUDA_ARCH__)
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return newton_inverse_sqrt_step(x, newton_inverse_sqrt_step(x, y));
#else
  return 1.0 / sqrt(x);
#endif
}

ORRERY_HD float fast_inverse_cube(float x) {
  const float y = fast_inverse_sqrt(x);
  return y * y * y;
}

ORRERY_HD double fast_inverse_cube(double x) {
#if defined(__CUDA_ARCH__)
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return inverse_cube_refined<2>(x, y);
#else
  return 1.0 / (x * sqrt(x));
#endif
}

}  // namespace orrery
