// SPDX-License-Identifier: MIT
// Double-double numbers (core/double_double.hpp) with an fp64 operand, and what generic lane code
// asks of them beyond arithmetic: the deviation vectors of a chaos run carried to double-double
// accuracy beside an fp64 state (core/dual.hpp), whose derivatives are multiplied by and divided
// by the step's fp64 values, compared (SALI's minimum) and whose norms' logarithms are summed.
//
//   x·y, y fp64   DWTimesFP3 (Algorithm 9, FMA)   relative error ≤ 2u²
//   x/y, y fp64   DWDivFP3 (Algorithm 15)         ≤ 3u²
//
// (M. Joldes, J.-M. Muller, V. Popescu, ACM Trans. Math. Softw. 44(2), 15 (2017); u = 2⁻⁵³).
// Named functions, not operators: an fp64 operand that converts to a double-double elsewhere
// keeps the double-double operations it always had.
#pragma once

#include "orrery/core/double_double.hpp"
#include "orrery/core/lane_log.hpp"

namespace orrery {

namespace double_word {

template <class T>
ORRERY_HD DoubleDouble<T> times_fp(const DoubleDouble<T>& x, const T& y) {
  T ch, cl1, zh, zl;
  two_prod(x.hi, y, ch, cl1);
  fast_two_sum(ch, mul_add(x.lo, y, cl1), zh, zl);
  return {zh, zl};
}

template <class T>
ORRERY_HD DoubleDouble<T> divide_fp(const DoubleDouble<T>& x, const T& y) {
  const T th = x.hi / y;
  T ph, pl, zh, zl;
  two_prod(th, y, ph, pl);
  const T delta = ((x.hi - ph) - pl) + x.lo;  // x.hi − ph is exact (Sterbenz)
  fast_two_sum(th, T(delta / y), zh, zl);
  return {zh, zl};
}

}  // namespace double_word

// Comparisons by value, lane by lane (a mask for SIMD lanes; NaN compares false, as for fp64).
template <class T>
ORRERY_HD auto operator<(const DoubleDouble<T>& x, const DoubleDouble<T>& y) {
  return (x.hi < y.hi) | ((x.hi == y.hi) & (x.lo < y.lo));
}
template <class T>
ORRERY_HD auto operator<=(const DoubleDouble<T>& x, const DoubleDouble<T>& y) {
  return less_equal(x, y);
}
template <class T>
ORRERY_HD auto operator>(const DoubleDouble<T>& x, const DoubleDouble<T>& y) {
  return y < x;
}
template <class T>
ORRERY_HD auto operator>=(const DoubleDouble<T>& x, const DoubleDouble<T>& y) {
  return less_equal(y, x);
}

// ln x to fp64's accuracy: the logarithm of the high word, which is x to a relative 2⁻⁵³ (the
// indicators' sums of logarithms are fp64 values).
template <class T>
struct LaneLog<DoubleDouble<T>> {
  ORRERY_HD static DoubleDouble<T> apply(const DoubleDouble<T>& x) {
    return {lane_log(x.hi), T(0.0)};
  }
};

}  // namespace orrery
