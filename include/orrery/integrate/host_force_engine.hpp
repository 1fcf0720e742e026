// SPDX-License-Identifier: MIT
// The array half of a CPU force engine: host memory (64-byte aligned) and the fused array update,
// element by element over all cores, so the result does not depend on the thread count. A CPU
// engine derives from it and supplies the physics (set_bodies, accelerations,
// potential_energy). Instantiated for float, double and float128.
#pragma once

#include "orrery/integrate/force_engine.hpp"

namespace orrery {

template <class Real>
class HostForceEngine : public ForceEngine<Real> {
 public:
  explicit HostForceEngine(int threads = 0) : threads_(threads) {}

  std::string device_name() const override { return "cpu"; }
  // OpenMP threads this engine uses (0: all).
  int threads() const { return threads_; }

  DeviceBuffer<Real> allocate(std::size_t n) override;
  void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) override;
  void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) override;
  void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) override;
  void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
               std::span<const double> c,
               std::span<const DeviceBuffer<Real>* const> k) override;

 private:
  int threads_;
};

}  // namespace orrery
