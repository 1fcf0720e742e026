// SPDX-License-Identifier: MIT
// A second-order system that counts what an array stepper asks of the one it wraps: force
// evaluations (calls) and targets (bodies whose accelerations were computed; a block-step
// stepper lists only some). What the benchmarks report as work and the tests check against the
// registry's costs.
#pragma once

#include <cstdint>
#include <span>

#include "orrery/integrate/second_order_system.hpp"

namespace orrery {

template <class Real>
class CountingSystem final : public SecondOrderSystem<Real> {
 public:
  explicit CountingSystem(SecondOrderSystem<Real>& inner) : inner_(inner) {}
  std::int64_t evaluations = 0;
  std::uint64_t targets = 0;

  ArrayDevice<Real>& device() override { return inner_.device(); }
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override {
    ++evaluations;
    targets += x.size() / 3;
    inner_.accelerations(x, a);
  }
  void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                        std::span<const std::uint32_t> list) override {
    ++evaluations;
    targets += list.size();
    inner_.accelerations_of(x, a, list);
  }

 private:
  SecondOrderSystem<Real>& inner_;
};

}  // namespace orrery
