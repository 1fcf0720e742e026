// SPDX-License-Identifier: MIT
// The size of one component of a step's error estimate e against a step control's tolerances,
// for any lane type (Hairer, Nørsett & Wanner, "Solving ODEs I", §II.4):
//
//   |e_i| / (atol + rtol · max(|y_i|, |z_i|))      y the state before the step, z after it
//
// A step's error is the largest of these over its components (the maximum norm: the same value
// whatever order the components are visited in). Written once for the array devices
// (ArrayDevice::max_scaled_error, `orrery sim`) and the ensembles' register steps.
#pragma once

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/core/lane_power.hpp"

namespace orrery {

// The denominator, atol + rtol · max(|y_i|, |z_i|), rounded as written (no fused multiply-add).
template <class T>
ORRERY_HD T error_scale(const T& y, const T& z, const T& atol, const T& rtol) {
  const T ay = lane_abs(y), az = lane_abs(z);
  const T larger = lane_select(ay < az, az, ay);  // std::max(ay, az)
  return atol + rtol * larger;
}

template <class T>
ORRERY_HD T scaled_error(const T& e, const T& y, const T& z, const T& atol, const T& rtol) {
  return lane_abs(e) / error_scale(y, z, atol, rtol);
}

// The largest scaled_error over several components, found without a division per component:
// the largest |e_i| / s_i (s_i = error_scale) is chosen by comparing |e_i|·s_m with |e_m|·s_i
// and divided once (a division is ~9 fp64 instructions on a GPU; an ensemble's controlled step
// has one per component). The quotient is scaled_error's for the component chosen, so the
// largest it gives unless two quotients lie within a rounding of each other (then either); a NaN
// component, once met, stays. Components are added with add(), the first by the constructor.
template <class T>
class LargestScaledError {
 public:
  ORRERY_HD LargestScaledError(const T& e, const T& y, const T& z, const T& atol, const T& rtol)
      : num_(lane_abs(e)), den_(error_scale(y, z, atol, rtol)) {}
  ORRERY_HD void add(const T& e, const T& y, const T& z, const T& atol, const T& rtol) {
    const T a = lane_abs(e), s = error_scale(y, z, atol, rtol);
    const auto larger = !(a * den_ <= num_ * s) && num_ == num_;
    num_ = lane_select(larger, a, num_);
    den_ = lane_select(larger, s, den_);
  }
  ORRERY_HD T value() const { return num_ / den_; }

 private:
  T num_, den_;
};

}  // namespace orrery
