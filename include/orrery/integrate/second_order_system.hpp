// SPDX-License-Identifier: MIT
// The right-hand side of a large second-order system x'' = a(x), as an array stepper sees it:
// the device its arrays live on (memory and the fused array update) and the accelerations.
// A force engine (nbody/force_engine.hpp) is one; so is anything else with an a(x).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

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
  // a(x) for the listed bodies only (a block-step stepper's active bodies): for each i of
  // `targets` (ascending, each < N; a list on the host) the three values a_i get the bits
  // accelerations() gives them, or agree with them to rounding where the system says so; every
  // other value of a stays as it was. Every body still acts as a source. This default computes
  // all of a(x) and keeps the listed values; a system whose work can scale with the number of
  // targets overrides it.
  virtual void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                std::span<const std::uint32_t> targets) {
    ArrayDevice<Real>& d = device();
    DeviceBuffer<Real> all = d.allocate(a.size());
    accelerations(x, all);
    std::vector<Real> host_all(a.size()), host_a(a.size());
    d.copy_to_host(all, host_all);
    d.copy_to_host(a, host_a);
    const std::size_t n = a.size() / 3;
    for (std::size_t component = 0; component < 3; ++component)
      for (const std::uint32_t i : targets)
        host_a[component * n + i] = host_all[component * n + i];
    d.copy_to_device(host_a, a);
  }
};

}  // namespace orrery
