// SPDX-License-Identifier: MIT
// The right-hand side of a large second-order system x'' = a(x), as an array stepper sees it:
// the device its arrays live on (memory and the fused array update) and the accelerations.
// A force engine (nbody/force_engine.hpp) is one; so is anything else with an a(x).
#pragma once

#include "orrery/device/array_device.hpp"

namespace orrery {

template <class Real>
class SecondOrderSystem {
 public:
  virtual ~SecondOrderSystem() = default;
  // Where x, v and the stepper's buffers live.
  virtual ArrayDevice<Real>& device() = 0;
  // a(x) for positions x (3N values each, on device()).
  virtual void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) = 0;
};

}  // namespace orrery
