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
// accelerations to the next step's first kick. The kept a(x) is the stepper's state
// (integrate/kept_accelerations.hpp). No error estimate; every step is accepted.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/kept_accelerations.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <SplittingTable Table, class Real>
class SplittingArrayStepper final : public ArrayStepper<Real> {
 public:
  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    kept_.prepare(device, x.size());
    for (const SplitOp& op : Table::ops) {
      if (op.coefficient == 0.0) continue;
      if (op.kind == SplitKind::drift) {
        update(device, x, h, op.coefficient, v);
        kept_.current = false;
      } else {
        if (!kept_.current) system.accelerations(x, kept_.buffer);
        kept_.current = true;
        update(device, v, h, op.coefficient, kept_.buffer);
      }
    }
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const override {
    kept_.save(system, state);
  }

  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) override {
    kept_.load(system, state, "splitting stepper");
  }

  void clear() override { kept_.current = false; }

 private:
  // y ← y + c h k.
  static void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& y, Real h, double c,
                     const DeviceBuffer<Real>& k) {
    const Real coefficient[1] = {static_cast<Real>(c)};
    const DeviceBuffer<Real>* term[1] = {&k};
    device.combine(y, y, h, coefficient, term);
  }

  KeptAccelerations<Real> kept_;
};

}  // namespace orrery
