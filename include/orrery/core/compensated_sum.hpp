// SPDX-License-Identifier: MIT
// Neumaier's improved Kahan summation (A. Neumaier, ZAMM 54, 39, 1974): the rounding error of
// each addition is carried along, so a sum of n terms is accurate to about one rounding of the
// result instead of n. Energies of large systems need it to be comparable between runs.
#pragma once

#include "orrery/core/hd.hpp"

namespace orrery {

template <class T>
class CompensatedSum {
 public:
  ORRERY_HD void add(const T& x) {
    const T t = sum_ + x;
    // The smaller of the two lost its low bits; recover them.
    if ((sum_ < T(0) ? -sum_ : sum_) >= (x < T(0) ? -x : x))
      carry_ += (sum_ - t) + x;
    else
      carry_ += (x - t) + sum_;
    sum_ = t;
  }
  ORRERY_HD T value() const { return sum_ + carry_; }

 private:
  T sum_ = T(0);
  T carry_ = T(0);
};

}  // namespace orrery
