// SPDX-License-Identifier: MIT
// Arrays in host memory (64-byte aligned) and the fused array update, element by element over
// the cores (OpenMP), so the result does not depend on the thread count. An update of fewer
// elements than a second thread can pay for runs on the calling thread alone (cpu_threads.hpp).
// CPU force engines hold one. Instantiated for float, double and float128.
#pragma once

#include "orrery/core/backend.hpp"
#include "orrery/device/array_device.hpp"

namespace orrery {

template <class Real>
class HostArrayDevice final : public ArrayDevice<Real> {
 public:
  // threads: the most it uses (0: all the process may use); min_elements_per_thread: the
  // fewest elements of an update worth a thread of their own (0: the measured default,
  // docs/internals/gravity-cpu.md).
  explicit HostArrayDevice(int threads = 0, std::size_t min_elements_per_thread = 0);

  std::string name() const override { return to_string(Backend::cpu); }
  bool host_accessible() const override { return true; }
  // The most threads this device uses (0: all).
  int threads() const { return threads_; }

  DeviceBuffer<Real> allocate(std::size_t n) override;
  void copy_to_device(std::span<const Real> host, DeviceBuffer<Real>& dst) override;
  void copy_to_host(const DeviceBuffer<Real>& src, std::span<Real> host) override;
  void copy(const DeviceBuffer<Real>& src, DeviceBuffer<Real>& dst) override;
  void combine(DeviceBuffer<Real>& out, const DeviceBuffer<Real>& y, Real h,
               std::span<const Real> c,
               std::span<const DeviceBuffer<Real>* const> k) override;
  void combine_listed(DeviceBuffer<Real>& y, Real h, double c, const DeviceBuffer<Real>& k,
                      std::span<const std::uint32_t> targets) override;
  bool all_finite(const DeviceBuffer<Real>& b) override;

 private:
  int threads_;
  int thread_limit_;  // threads_ capped at the CPUs this process may use
  std::size_t grain_;
};

}  // namespace orrery
