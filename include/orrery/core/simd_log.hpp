// SPDX-License-Identifier: MIT
// exact_log (core/lane_log.hpp) on a whole SIMD vector of doubles at once: the same operations
// in the same order on every lane (the exponent and mantissa read from the bits by integer
// operations, the same series by Horner's rule in fused multiply-adds, the same Cody–Waite split
// of ln 2), so each lane gets exact_log's bits, zero, negative, infinite, NaN and subnormal
// arguments included. Taken one lane at a time, the logarithm cost the chaos lanes as much as
// the ten steps between two renormalisations. Included where SIMD lanes take logarithms (the
// chaos lanes, through core/simd_group.hpp), before lane_log is instantiated for them.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include <experimental/simd>

#include "orrery/core/hd_math.hpp"
#include "orrery/core/lane_log.hpp"

namespace orrery {

namespace stdx = std::experimental;

// Inlined, as ORRERY_HD code is on the host: a call would spill every vector register the
// caller keeps (none survives a call), and an out-of-line copy compiled for one instruction set
// could be chosen by the linker for another's callers.
template <class V>
[[gnu::always_inline]] inline V simd_exact_log(const V& x) {
  using U = stdx::rebind_simd_t<std::uint64_t, V>;
  static_assert(sizeof(U) == sizeof(V));
  constexpr double kMin = std::numeric_limits<double>::min();
  // Subnormals scaled into the normal range first (exact), their exponent corrected below.
  const auto tiny = x < V(kMin);
  V scaled = x;
  stdx::where(tiny, scaled) = x * V(0x1p54);
  U bits = std::bit_cast<U>(scaled);
  // The exponent as a double: small integers, so every step below is exact, as exact_log's int.
  V e = stdx::static_simd_cast<V>(stdx::static_simd_cast<stdx::rebind_simd_t<std::int64_t, V>>(
            (bits >> 52) & U(0x7ff))) -
        V(1022.0);
  stdx::where(tiny, e) -= V(54.0);
  bits = (bits & U(0x000fffffffffffffULL)) | U(0x3fe0000000000000ULL);
  V m = std::bit_cast<V>(bits);
  const auto low = m < V(0.70710678118654752440);
  stdx::where(low, m) = m + m;
  stdx::where(low, e) -= V(1.0);
  const V s = (m - V(1.0)) / (m + V(1.0)), z = s * s;
  V p(1.0 / 23.0);
  for (int n = 10; n >= 0; --n) p = mul_add(p, z, V(1.0 / (2 * n + 1)));
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  V r = mul_add(e, V(ln2_hi), mul_add(e, V(ln2_lo), (s + s) * p));
  // exact_log's early returns: ln 0 = −∞, NaN below 0 and for NaN, +∞ for +∞.
  stdx::where(x > V(std::numeric_limits<double>::max()), r) = x;
  stdx::where(!(x > V(0.0)), r) = V(std::numeric_limits<double>::quiet_NaN());
  stdx::where(x == V(0.0), r) = V(-std::numeric_limits<double>::infinity());
  return r;
}

template <class Abi>
struct LaneLog<stdx::simd<double, Abi>> {
  [[gnu::always_inline]] static stdx::simd<double, Abi> apply(const stdx::simd<double, Abi>& x) {
    return simd_exact_log(x);
  }
};

}  // namespace orrery
