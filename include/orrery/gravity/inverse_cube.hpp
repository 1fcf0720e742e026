// SPDX-License-Identifier: MIT
// The pair factor of Newtonian gravity, k(r²) = 1 / (r² √r²) = 1/|r|³, in the variants the
// precision modes name. Each is a policy type used by the right-hand sides, so that a mode is a
// template argument and never a silent change of arithmetic.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

// k = 1 / (r² · √r²) in the lane type itself; every step correctly rounded, hence the same bits
// on any IEEE machine.
struct InverseCubeExact {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
    return T(1) / (r2 * sqrt(r2));
  }
};

// The same formula evaluated in a narrower type `Factor` (float for the "mixed" mode: state in
// fp64, the 1/r³ factor in fp32, as in the published mixed-precision divergence maps).
template <class Factor>
struct InverseCubeIn {
  template <class T>
  ORRERY_HD T operator()(const T& r2) const {
    using F = rebind_t<Factor, T>;
    const F r2f = convert<F>(r2);
    return convert<T>(F(1) / (r2f * sqrt(r2f)));
  }
};

}  // namespace orrery
