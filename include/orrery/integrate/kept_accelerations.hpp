// SPDX-License-Identifier: MIT
// The a(x) a stepper keeps between steps (first same as last: a step ending with a kick hands
// its accelerations to the next one) and its saved form: "accelerations" (3N values, present
// only while current) and the scalar "accelerations_current", 1 or 0. Shared by the steppers
// whose whole state it is (splitting/, block_steps/).
#pragma once

#include <cstddef>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/integrate/second_order_system.hpp"
#include "orrery/integrate/stepper_state.hpp"

namespace orrery {

template <class Real>
class KeptAccelerations {
 public:
  // The buffer on this device for n values; a new one holds no current a(x).
  void prepare(ArrayDevice<Real>& device, std::size_t n) {
    if (device_ == &device && buffer.size() == n) return;
    buffer = device.allocate(n);
    current = false;
    device_ = &device;
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const {
    state = StepperState<Real>();
    state.set_scalar(kCurrent, current ? Real(1) : Real(0));
    if (!current) return;
    std::vector<Real> host(buffer.size());
    system.device().copy_to_host(buffer, host);
    state.set_array(kAccelerations, std::move(host));
  }

  // `who` names the stepper in the error for a state it cannot have written.
  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state, const char* who) {
    const std::vector<Real>* a = state.find_array(kAccelerations);
    const bool now_current = state.scalar(kCurrent) != Real(0);
    if (now_current != (a != nullptr) || state.arrays().size() > 1 || state.scalars().size() != 1)
      throw InputError(std::string(who) + ": not a state it saved");
    current = false;
    if (!now_current) return;
    ArrayDevice<Real>& device = system.device();
    prepare(device, a->size());
    device.copy_to_device(*a, buffer);
    current = true;
  }

  DeviceBuffer<Real> buffer;
  bool current = false;  // buffer holds a(x) of the x last stepped

 private:
  static constexpr const char* kAccelerations = "accelerations";
  static constexpr const char* kCurrent = "accelerations_current";
  const ArrayDevice<Real>* device_ = nullptr;
};

}  // namespace orrery
