// SPDX-License-Identifier: MIT
// A dual number (core/dual.hpp, core/dual_double_double.hpp) as an element of a register state
// (integrate/phase_state.hpp): its lane type is its T, so that a stepper's step size and coefficients stay plain lane values
// and a state of Dual<T, K> advances its tangent vectors with the step's own operations.
#pragma once

#include "orrery/core/dual.hpp"
#include "orrery/core/dual_double_double.hpp"
#include "orrery/integrate/phase_state.hpp"

namespace orrery {

// Elements of a register state: a Dual's lane type is its T, so that the steppers' step size and
// coefficients stay plain lane values (integrate/phase_state.hpp).
template <class T, int K>
struct ElementTraits<Dual<T, K>> {
  using Lane = T;
  static constexpr int words = 1 + K;
  template <class F>
  ORRERY_HD static void for_each_word(Dual<T, K>& e, F&& f) {
    f(e.v);
    for (int k = 0; k < K; ++k) f(e.d[k]);
  }
};

// The same for a dual number with double-double derivatives: each derivative is two words.
template <class T, int K>
struct ElementTraits<DualDD<T, K>> {
  using Lane = T;
  static constexpr int words = 1 + 2 * K;
  template <class F>
  ORRERY_HD static void for_each_word(DualDD<T, K>& e, F&& f) {
    f(e.v);
    for (int k = 0; k < K; ++k) {
      f(e.d[k].hi);
      f(e.d[k].lo);
    }
  }
};

}  // namespace orrery
