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

// atol + rtol·max rounds as written (no fused multiply-add).
template <class T>
ORRERY_HD T scaled_error(const T& e, const T& y, const T& z, const T& atol, const T& rtol) {
  const T ay = lane_abs(y), az = lane_abs(z);
  const T larger = lane_select(ay < az, az, ay);  // std::max(ay, az)
  const T scale = atol + rtol * larger;
  return lane_abs(e) / scale;
}

}  // namespace orrery
