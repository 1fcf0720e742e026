// SPDX-License-Identifier: MIT
// MPFR numbers (through mpreal.h, Debian's libmpfrc++-dev) as a lane type of the ORRERY_HD code
// (core/hd_math.hpp): the deep zoom's arbitrary-precision reference trajectory and its tests
// step the same problem code with them. Include only where the build found MPFR.
#pragma once

#include <mpreal.h>

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <>
struct LaneMath<mpfr::mpreal> {
  static mpfr::mpreal mul_add(const mpfr::mpreal& a, const mpfr::mpreal& b,
                              const mpfr::mpreal& c) {
    return mpfr::fma(a, b, c);
  }
  static mpfr::mpreal sqrt(const mpfr::mpreal& x) { return mpfr::sqrt(x); }
  static mpfr::mpreal select(bool take_first, const mpfr::mpreal& a, const mpfr::mpreal& b) {
    return take_first ? a : b;
  }
};

}  // namespace orrery
