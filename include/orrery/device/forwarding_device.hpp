// SPDX-License-Identifier: MIT
// An ArrayDevice that hands every call to another one: the base of devices that change one thing
// about a device and keep the rest — one that counts what is allocated (jobs/stepper_footprint),
// one that tells a stepper its memory is out of the host's reach (the tests of the steppers'
// copying paths).
#pragma once

#include "orrery/device/array_device.hpp"

namespace orrery {

template <class Real>
class ForwardingDevice : public ArrayDevice<Real> {
 public:
  explicit ForwardingDevice(ArrayDevice<Real>& inner) : inner_(inner) {}

  std::string name() const override { return inner_.name(); }
  bool host_accessible() const override { return inner_.host_accessible(); }
  DeviceBuffer<Real> allocate(std::size_t n) override { return inner_.allocate(n); }
  void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) override {
    inner_.copy_to_device(host, dst);
  }
  void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) override {
    inner_.copy_to_host(src, host);
  }
  void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) override {
    inner_.copy(src, dst);
  }
  void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
               std::span<const Real> c, std::span<const DeviceBuffer<Real>* const> k) override {
    inner_.combine(out, y, h, c, k);
  }
  void combine_listed(DeviceBuffer<Real>& y, Real h, double c, const DeviceBuffer<Real>& k,
                      std::span<const std::uint32_t> targets) override {
    inner_.combine_listed(y, h, c, k, targets);
  }
  bool all_finite(const DeviceBuffer<Real>& b) override { return inner_.all_finite(b); }
  double max_scaled_error(const DeviceBuffer<Real>& e, const DeviceBuffer<Real>& y,
                          const DeviceBuffer<Real>& z, double atol, double rtol) override {
    return inner_.max_scaled_error(e, y, z, atol, rtol);
  }

 private:
  ArrayDevice<Real>& inner_;
};

}  // namespace orrery
