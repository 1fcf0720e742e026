// SPDX-License-Identifier: MIT
// A system that counts the force evaluations an array stepper asks of the one it wraps.
#pragma once

#include "orrery/integrate/second_order_system.hpp"

namespace orrery::test {

class CountingSystem final : public SecondOrderSystem<double> {
 public:
  explicit CountingSystem(SecondOrderSystem<double>& inner) : inner_(inner) {}
  int evaluations = 0;

  ArrayDevice<double>& device() override { return inner_.device(); }
  void accelerations(const DeviceBuffer<double>& x, DeviceBuffer<double>& a) override {
    ++evaluations;
    inner_.accelerations(x, a);
  }

 private:
  SecondOrderSystem<double>& inner_;
};

}  // namespace orrery::test
