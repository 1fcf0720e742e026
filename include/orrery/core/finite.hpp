// SPDX-License-Identifier: MIT
// Whether a value is finite, for every precision the library runs (float128 included, which
// std::isfinite does not take): NaN fails x == x, ±∞ fails x − x == 0.
#pragma once

namespace orrery {

template <class Real>
bool is_finite_value(Real x) {
  return x == x && x - x == Real(0);
}

}  // namespace orrery
