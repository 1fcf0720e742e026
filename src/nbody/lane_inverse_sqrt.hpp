// SPDX-License-Identifier: MIT
// 1/√x per SIMD lane for the per-instruction-set kernels (include only from files compiled with
// -DORRERY_CPU_KERNEL, inside their namespace): the hardware estimate refined by Newton steps
// to the format's precision where the instruction set has one (AVX-512; AVX2 in fp32), else the
// IEEE square root and division. The Newton step is physics/inverse_sqrt.hpp's, shared with the
// GPU kernels. Lanes with x ≤ 0 give 0, so a source at r = 0 (the target
// itself, unsoftened) adds nothing.
#pragma once

#include <type_traits>

#include "orrery/core/simd.hpp"
#include "orrery/physics/inverse_sqrt.hpp"

namespace orrery::cpu::ORRERY_CPU_KERNEL {

template <class R>
stdx::native_simd<R> lane_inverse_sqrt(const stdx::native_simd<R>& x) {
  using V = stdx::native_simd<R>;
  V y;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<R, double>)  // 2⁻¹⁴ → 2⁻²⁸ → below 2⁻⁵³
    y = newton_inverse_sqrt_step(x, newton_inverse_sqrt_step(x, V(_mm512_rsqrt14_pd(static_cast<__m512d>(x)))));
  else  // 2⁻¹⁴ → below 2⁻²⁴
    y = newton_inverse_sqrt_step(x, V(_mm512_rsqrt14_ps(static_cast<__m512>(x))));
#elif defined(__AVX2__)
  if constexpr (std::is_same_v<R, float>)  // 1.5·2⁻¹² → ~2⁻²³
    y = newton_inverse_sqrt_step(x, V(_mm256_rsqrt_ps(static_cast<__m256>(x))));
  else
    y = V(1) / stdx::sqrt(x);
#else
  y = V(1) / stdx::sqrt(x);
#endif
  stdx::where(x <= V(0), y) = V(0);
  return y;
}

}  // namespace orrery::cpu::ORRERY_CPU_KERNEL
