// SPDX-License-Identifier: MIT
// The splitting step of integrate/splitting/register_stepper.hpp for a large system whose state
// lives on the system's device:
//
//   for each operation of the table, in order:
//     drift c:  x ← x + c h v          kick d:  v ← v + d h a(x)
//
// Every update is one ArrayDevice::combine with one term, which is the register stepper's
// arithmetic, so the two steppers agree bit for bit when the system's accelerations do.
//
// First same as last: a(x) is evaluated before a kick only when a drift moved x since the last
// evaluation, and kept between steps, so a table ending with a kick (leapfrog, Yoshida) hands its
// accelerations to the next step's first kick. reset() drops them; since a(x) is a function of x
// alone, a step gives the same bits with or without reset(), which makes a resumed run equal an
// uninterrupted one.
#pragma once

#include <cstddef>

#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <SplittingTable Table, class Real>
class SplittingArrayStepper final : public ArrayStepper<Real> {
 public:
  void step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, DeviceBuffer<Real>& v,
            Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x);
    for (const SplitOp& op : Table::ops) {
      if (op.coefficient == 0.0) continue;
      if (op.kind == SplitKind::drift) {
        update(device, x, h, op.coefficient, v);
        accel_current_ = false;
      } else {
        if (!accel_current_) system.accelerations(x, accel_);
        accel_current_ = true;
        update(device, v, h, op.coefficient, accel_);
      }
    }
  }

  void reset() override { accel_current_ = false; }

 private:
  // y ← y + c h k.
  static void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& y, Real h, double c,
                     const DeviceBuffer<Real>& k) {
    const double coefficient[1] = {c};
    const DeviceBuffer<Real>* term[1] = {&k};
    device.combine(y, y, h, coefficient, term);
  }

  // The acceleration buffer on this device; the kept a(x) belongs to one device and one
  // position buffer, and is dropped when either changes.
  void prepare(ArrayDevice<Real>& device, const DeviceBuffer<Real>& x) {
    if (device_ != &device || accel_.size() != x.size()) {
      accel_ = device.allocate(x.size());
      accel_current_ = false;
    }
    if (x_ != &x || x_data_ != x.data()) accel_current_ = false;
    device_ = &device;
    x_ = &x;
    x_data_ = x.data();
  }

  const ArrayDevice<Real>* device_ = nullptr;
  const DeviceBuffer<Real>* x_ = nullptr;
  const Real* x_data_ = nullptr;
  DeviceBuffer<Real> accel_;
  bool accel_current_ = false;
};

}  // namespace orrery
