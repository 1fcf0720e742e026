// SPDX-License-Identifier: MIT
// SIMD lane types for the CPU backends: std::experimental::simd (Parallelism TS 2, shipped with
// libstdc++), whose width follows the instruction set a translation unit is compiled for
// (8 doubles with AVX-512, 4 with AVX2, 2 with SSE2). Generic ORRERY_HD code runs on these
// vectors unchanged: operators for arithmetic, and the LaneMath / LaneConvert specialisations
// below for the rest.
//
// libstdc++ 12 implements simd fma element by element through a function call; the x86 FMA
// intrinsics below give the same single-rounding result as one instruction.
#pragma once

#if defined(__CUDACC__)
#error "orrery/core/simd.hpp is host-only"
#endif

#include <experimental/simd>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "orrery/core/hd_math.hpp"

namespace orrery {

namespace stdx = std::experimental;

template <class T, class Abi>
struct LaneMath<stdx::simd<T, Abi>> {
  using V = stdx::simd<T, Abi>;

  ORRERY_HD static V mul_add(const V& a, const V& b, const V& c) {
#if defined(__FMA__)
    if constexpr (std::is_same_v<T, double> && sizeof(V) == 32)
      return V(_mm256_fmadd_pd(static_cast<__m256d>(a), static_cast<__m256d>(b),
                               static_cast<__m256d>(c)));
    else if constexpr (std::is_same_v<T, float> && sizeof(V) == 32)
      return V(_mm256_fmadd_ps(static_cast<__m256>(a), static_cast<__m256>(b),
                               static_cast<__m256>(c)));
    else if constexpr (std::is_same_v<T, double> && sizeof(V) == 16)
      return V(_mm_fmadd_pd(static_cast<__m128d>(a), static_cast<__m128d>(b),
                            static_cast<__m128d>(c)));
    else if constexpr (std::is_same_v<T, float> && sizeof(V) == 16)
      return V(_mm_fmadd_ps(static_cast<__m128>(a), static_cast<__m128>(b),
                            static_cast<__m128>(c)));
#if defined(__AVX512F__)
    else if constexpr (std::is_same_v<T, double> && sizeof(V) == 64)
      return V(_mm512_fmadd_pd(static_cast<__m512d>(a), static_cast<__m512d>(b),
                               static_cast<__m512d>(c)));
    else if constexpr (std::is_same_v<T, float> && sizeof(V) == 64)
      return V(_mm512_fmadd_ps(static_cast<__m512>(a), static_cast<__m512>(b),
                               static_cast<__m512>(c)));
#endif
    else
#endif
      return V([&](auto i) { return std::fma(a[i], b[i], c[i]); });
  }

  ORRERY_HD static V sqrt(const V& x) { return stdx::sqrt(x); }

  ORRERY_HD static V select(const typename V::mask_type& take_first, const V& first,
                            const V& second) {
    V out = second;
    stdx::where(take_first, out) = first;
    return out;
  }
};

template <class T, class Abi>
struct LaneScalar<stdx::simd<T, Abi>> {
  using type = T;
};

template <class Scalar, class T, class Abi>
struct Rebind<Scalar, stdx::simd<T, Abi>> {
  using type = stdx::rebind_simd_t<Scalar, stdx::simd<T, Abi>>;
};

template <class To, class FromT, class FromAbi>
struct LaneConvert<To, stdx::simd<FromT, FromAbi>> {
  ORRERY_HD static To apply(const stdx::simd<FromT, FromAbi>& x) {
    return stdx::static_simd_cast<To>(x);
  }
};

}  // namespace orrery
