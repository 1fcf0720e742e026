// SPDX-License-Identifier: MIT
// The pair factor of Newtonian gravity, k(r²) = 1 / (r² √r²) = 1/|r|³, in the variants the
// precision modes name. Each is a policy type used by the right-hand sides, so that a mode is a
// template argument and never a silent change of arithmetic.
#pragma once

#include <type_traits>

#include "orrery/core/hd_math.hpp"

namespace orrery {

// k = 1 / (r² · √r²): square root, product and quotient each correctly rounded, hence the same
// bits on any IEEE machine, CPU or GPU.
struct InverseCubeExact {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
    return T(1) / (r2 * sqrt(r2));
  }
};

// k = y³ with y the GPU's reciprocal square root of r² (rsqrt: at most 1 ulp off in fp64,
// 2 ulp in fp32), so k is within a few ulp of the exact factor at a fraction of the cost of
// the correctly rounded square root and division. Host code, which has no such instruction,
// evaluates the exact formula.
struct InverseCubeFast {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, double>) {
      const double y = ::rsqrt(r2);
      return y * y * y;
    } else {
      const float y = ::rsqrtf(r2);
      return y * y * y;
    }
#else
    return InverseCubeExact{}(r2);
#endif
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
