// SPDX-License-Identifier: MIT
// __float128 (GCC, x86-64 host only) as a lane type: quadruple precision for reference runs and
// energy studies, about 100 times slower than fp64.
#pragma once

#if defined(__CUDACC__)
#error "orrery/core/float128.hpp is host-only"
#endif

#include <quadmath.h>

#include <string>

#include "orrery/core/hd_math.hpp"

namespace orrery {

using float128 = __float128;

template <>
struct LaneMath<float128> {
  static float128 mul_add(float128 a, float128 b, float128 c) { return fmaq(a, b, c); }
  static float128 sqrt(float128 x) { return sqrtq(x); }
};

inline std::string to_string(float128 x, int digits = 36) {
  char buf[64];
  quadmath_snprintf(buf, sizeof buf, "%.*Qg", digits, x);
  return buf;
}

}  // namespace orrery
