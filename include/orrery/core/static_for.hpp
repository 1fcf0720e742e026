// SPDX-License-Identifier: MIT
// A loop unrolled at compile time: f(std::integral_constant<int, i>) for i in [Begin, End).
// Register steppers use it so that coefficient tables become constants in the generated code
// and zero coefficients disappear (host and device alike).
#pragma once

#include <type_traits>

#include "orrery/core/hd.hpp"

namespace orrery {

template <int Begin, int End, class F>
ORRERY_HD constexpr void static_for(F&& f) {
  if constexpr (Begin < End) {
    f(std::integral_constant<int, Begin>{});
    static_for<Begin + 1, End>(f);
  }
}

}  // namespace orrery
