// SPDX-License-Identifier: MIT
// 1/√x for the GPU's force kernels, written once: fp32 the hardware's rsqrtf (at most 2 ulp,
// CUDA C Programming Guide, "Mathematical functions"); fp64 the hardware's approximate
// rsqrt.approx.f64 (about 2⁻²² relative) refined by two Newton steps,
//   y ← y + y/2 · (1 − x y²)   (each squares the relative error),
// to within a few ulp. On the host (where this is compiled for tests) the IEEE 1/√x.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T>
ORRERY_HD T newton_inverse_sqrt_step(T x, T y) {
  const T e = mul_add(-x, y * y, T(1));
  return mul_add(y * T(0.5f), e, y);
}

ORRERY_HD float fast_inverse_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  return ::rsqrtf(x);
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

}  // namespace orrery
