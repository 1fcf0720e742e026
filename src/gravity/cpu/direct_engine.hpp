// SPDX-License-Identifier: MIT
// The direct all-pairs engine on the CPU: every target sums every source, in increasing source
// order, so the result does not depend on how targets are split among threads.
#pragma once

#include <vector>

#include "orrery/gravity/engines.hpp"
#include "orrery/integrate/host_force_engine.hpp"

namespace orrery::cpu {

template <class Real>
class DirectEngine final : public HostForceEngine<Real> {
 public:
  explicit DirectEngine(const EngineOptions& options);

  std::string name() const override { return "direct"; }
  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override;
  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override;
  double potential_energy(const DeviceBuffer<Real>& x) override;

 private:
  EngineOptions options_;
  std::vector<Real> mass_;
  std::vector<Real> eps2_;  // ε_i², one per particle (all ε² for a global ε)
};

}  // namespace orrery::cpu
