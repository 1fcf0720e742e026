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
// accelerations to the next step's first kick. The kept a(x) is the stepper's state: save()
// writes it ("accelerations", 3N values, present only while it is current, and the scalar
// "accelerations_current", 1 or 0), load() puts it back. No error estimate; every step is
// accepted.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

template <SplittingTable Table, class Real>
class SplittingArrayStepper final : public ArrayStepper<Real> {
 public:
  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    prepare(device, x.size());
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
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const override {
    state = StepperState<Real>();
    state.set_scalar(kCurrent, accel_current_ ? Real(1) : Real(0));
    if (!accel_current_) return;
    std::vector<Real> host(accel_.size());
    system.device().copy_to_host(accel_, host);
    state.set_array(kAccelerations, std::move(host));
  }

  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) override {
    const std::vector<Real>* a = state.find_array(kAccelerations);
    const bool current = state.scalar(kCurrent) != Real(0);
    if (current != (a != nullptr) || state.arrays().size() > 1 || state.scalars().size() != 1)
      throw InputError("splitting stepper: not a state it saved");
    accel_current_ = false;
    if (!current) return;
    ArrayDevice<Real>& device = system.device();
    prepare(device, a->size());
    device.copy_to_device(*a, accel_);
    accel_current_ = true;
  }

  void clear() override { accel_current_ = false; }

 private:
  static constexpr const char* kAccelerations = "accelerations";
  static constexpr const char* kCurrent = "accelerations_current";

  // y ← y + c h k.
  static void update(ArrayDevice<Real>& device, DeviceBuffer<Real>& y, Real h, double c,
                     const DeviceBuffer<Real>& k) {
    const Real coefficient[1] = {static_cast<Real>(c)};
    const DeviceBuffer<Real>* term[1] = {&k};
    device.combine(y, y, h, coefficient, term);
  }

  // The acceleration buffer on this device for n values; a new one holds no current a(x).
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && accel_.size() == n) return;
    accel_ = device.allocate(n);
    accel_current_ = false;
    device_ = &device;
  }

  const ArrayDevice<Real>* device_ = nullptr;
  DeviceBuffer<Real> accel_;
  bool accel_current_ = false;
};

}  // namespace orrery
