// SPDX-License-Identifier: MIT
// The direct all-pairs engine on the CPU: every target sums every source, in increasing source
// order, so the result does not depend on how targets are split among threads. Massless bodies
// after the last massive one (test particles) are targets only. float and double
// run the instruction-set kernels of direct_tiles.cpp; float128 a plain scalar loop.
#pragma once

#include <vector>

#include "direct_kernel.hpp"
#include "orrery/core/backend.hpp"
#include "orrery/device/cpu/host_array_device.hpp"
#include "orrery/nbody/engine_options.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery::cpu {

template <class Real>
class DirectEngine final : public ForceEngine<Real> {
 public:
  explicit DirectEngine(const EngineOptions& options);

  std::string name() const override { return "direct"; }

  double gravitational_constant() const override { return options_.g; }
  std::string backend() const override { return to_string(Backend::cpu); }
  ArrayDevice<Real>& device() override { return device_; }
  // The instruction-set variant in use ("scalar" for float128).
  std::string kernel_name() const;
  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override;
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override;
  // Work in proportion to the targets; accelerations() is this call for every body, so a target
  // gets the same bits from both.
  void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                        std::span<const std::uint32_t> targets) override;
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override;
  double potential_energy(const DeviceBuffer<Real>& x) override;
  EngineTimings last_timings() const override { return timings_; }

 private:
  DirectSources<Real> sources(const DeviceBuffer<Real>& x) const;
  // Threads for `pairs` interactions: at most the asked-for and usable CPUs, and one per
  // kPairsPerThread (or options.min_work_per_thread) pairs.
  int thread_count(std::size_t pairs) const;

  EngineOptions options_;
  int thread_limit_;  // options.threads capped at the CPUs this process may use
  HostArrayDevice<Real> device_;
  const DirectKernel* kernel_;
  std::vector<Real> mass_;
  std::size_t n_sources_ = 0;  // after the last body with mass, only test particles
  std::vector<Real> half_eps2_;
  std::vector<std::uint32_t> every_body_;  // 0..N−1, the targets of accelerations()
  EngineTimings timings_;  // ε_i²/2, one per particle (all ε²/2 for a global ε)
};

}  // namespace orrery::cpu
