// SPDX-License-Identifier: MIT
// The natural logarithm from correctly rounded operations only, so that its bits are the same on
// the CPU and the GPU (std::log and CUDA's log differ in the last place):
//
//   x = m·2^e with m ∈ [√½, √2),   ln x = e·ln 2 + 2 atanh(s),   s = (m − 1)/(m + 1),
//   2 atanh(s) = 2s Σ_{n≥0} s^{2n}/(2n + 1)      (|s| ≤ 0.172, so s² ≤ 0.0295)
//
// The series is cut after s²¹¹/23 (0.0295¹² < 10⁻¹⁸), the sum by Horner's rule in fused
// multiply-adds, and ln 2 split in two (Cody & Waite) so that e·ln 2 loses nothing: a few units
// in the last place. Splitting off the exponent and the scaling by 2 are exact. Any lane type: a
// scalar, a SIMD vector of doubles all lanes at once (LaneLog, core/simd_log.hpp), any other
// element by element.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"

namespace orrery {

ORRERY_HD double exact_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::quiet_NaN();
  if (x > std::numeric_limits<double>::max()) return x;
  // x = m·2^e with m ∈ [½, 1), as frexp gives them, read from the bits (no library call: the
  // CPU lanes take this once per lane and interval, where a call per lane cost more than the
  // steps).
  int e = 0;
  if (x < std::numeric_limits<double>::min()) x *= 0x1p54, e = -54;  // subnormal: now normal
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  e += static_cast<int>((bits >> 52) & 0x7ff) - 1022;
  bits = (bits & 0x000fffffffffffffULL) | 0x3fe0000000000000ULL;
  double m = 0;
  std::memcpy(&m, &bits, sizeof m);
  if (m < 0.70710678118654752440) m += m, e -= 1;
  const double s = (m - 1.0) / (m + 1.0), z = s * s;
  double p = 1.0 / 23.0;
  ORRERY_UNROLL
  for (int n = 10; n >= 0; --n) p = mul_add(p, z, 1.0 / (2 * n + 1));
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000: e·ln2_hi exact
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double de = static_cast<double>(e);
  return mul_add(de, ln2_hi, mul_add(de, ln2_lo, (s + s) * p));
}

// ln x for a lane type other than a scalar, where one specialises it: apply(x).
template <class T>
struct LaneLog;

// ln x for any lane type (a float lane through double).
template <class T>
ORRERY_HD T lane_log(const T& x) {
  if constexpr (std::is_same_v<T, double>)
    return exact_log(x);
  else if constexpr (std::is_arithmetic_v<T>)
    return static_cast<T>(exact_log(static_cast<double>(x)));
  else if constexpr (requires { LaneLog<T>::apply(x); })
    return LaneLog<T>::apply(x);  // a SIMD vector at once (core/simd_log.hpp), a double-double
  else
    return T([&](auto i) { return static_cast<lane_scalar_t<T>>(exact_log(x[i])); });
}

}  // namespace orrery
