// SPDX-License-Identifier: MIT
// Neumaier's improved Kahan summation (A. Neumaier, ZAMM 54, 39, 1974): the rounding error of
// each addition is carried along, so a sum of n terms is accurate to about one rounding of the
// result instead of n. Energies of large systems need it to be comparable between runs.
// The error of each addition is Knuth's TwoSum (D. E. Knuth, TAOCP vol. 2, §4.2.2): exact, like
// Neumaier's branch on the larger magnitude, so the two give the same bits for finite sums,
// and without a branch, so that it also serves SIMD lanes.
#pragma once

#include "orrery/core/hd.hpp"

namespace orrery {

// s = fl(a + b) and, in `error`, the exact a + b − s (round to nearest, no overflow). For a
// scalar or a SIMD lane type.
template <class T>
ORRERY_HD T two_sum(const T& a, const T& b, T& error) {
  const T s = a + b;
  const T b_virtual = s - a;
  error = (a - (s - b_virtual)) + (b - b_virtual);
  return s;
}

template <class T>
class CompensatedSum {
 public:
  ORRERY_HD void add(const T& x) {
    T error;
    sum_ = two_sum(sum_, x, error);
    carry_ += error;
  }
  ORRERY_HD T value() const { return sum_ + carry_; }

 private:
  T sum_ = T(0);
  T carry_ = T(0);
};

}  // namespace orrery
