// SPDX-License-Identifier: MIT
// |x| and x^y for any lane type (a scalar, or a SIMD vector of <orrery/core/simd.hpp>), for the
// step-size controls (core/error_norm.hpp, integrate/runge_kutta/step_control.hpp).
//
// |x| is exact. x^y is the one operation of ORRERY_HD code that is not correctly rounded
// everywhere (core/hd_math.hpp): the host's libm and CUDA's round it differently now and then,
// so a controlled step may differ by an ulp between the CPU and the GPU — never between the
// CPU's vector widths, whose pow calls the scalar std::pow lane by lane.
#pragma once

#include <cmath>
#include <type_traits>

#if !defined(__CUDACC__)
#include <experimental/simd>
#endif

#include "orrery/core/hd.hpp"

namespace orrery {

template <class T>
ORRERY_HD T lane_abs(const T& x) {
  if constexpr (std::is_same_v<T, float>) {
#if defined(__CUDA_ARCH__)
    return ::fabsf(x);
#else
    return std::fabs(x);
#endif
  } else if constexpr (std::is_same_v<T, double>) {
#if defined(__CUDA_ARCH__)
    return ::fabs(x);
#else
    return std::fabs(x);
#endif
  } else {
#if !defined(__CUDACC__)
    return std::experimental::abs(x);
#endif
  }
}

template <class T>
ORRERY_HD T lane_pow(const T& x, const T& y) {
  if constexpr (std::is_same_v<T, float>) {
#if defined(__CUDA_ARCH__)
    return ::powf(x, y);
#else
    return std::pow(x, y);
#endif
  } else if constexpr (std::is_same_v<T, double>) {
#if defined(__CUDA_ARCH__)
    return ::pow(x, y);
#else
    return std::pow(x, y);
#endif
  } else {
#if !defined(__CUDACC__)
    return std::experimental::pow(x, y);  // std::pow lane by lane: a scalar run's bits
#endif
  }
}

// x^y for a float lane type where a few units in the last place do not matter (a step control's
// factor): on a GPU by its special-function unit (__powf: ex2(y·lg2(x)), approximate, flushing
// subnormals), which takes two instructions where powf's accurate path and special cases take
// some forty; elsewhere lane_pow. Powers of 0 and ∞ and NaN behave as powf's (for y < 0: +∞, +0,
// NaN); a subnormal x is taken as 0.
template <class T>
ORRERY_HD T lane_pow_approx(const T& x, const T& y) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return ::__powf(x, y);
#endif
  return lane_pow(x, y);
}

}  // namespace orrery
