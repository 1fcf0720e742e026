// SPDX-License-Identifier: MIT
// A time step of a large system x'' = a(x) whose state lives on the system's device.
// Each family (explicit Runge–Kutta, symplectic splitting, ...) has one generic array stepper
// driven by the same coefficient tables as its register stepper.
#pragma once

#include "orrery/integrate/second_order_system.hpp"

namespace orrery {

template <class Real>
class ArrayStepper {
 public:
  virtual ~ArrayStepper() = default;
  // Advances positions x and velocities v (3N arrays on the system's device) by h.
  virtual void step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                    DeviceBuffer<Real>& v, Real h) = 0;
  // Drops anything cached from earlier steps (accelerations of the current positions), after the
  // state was changed from outside. A stepper must give the same bits with or without reset():
  // that is what makes a resumed run equal an uninterrupted one.
  virtual void reset() {}
};

}  // namespace orrery
