// SPDX-License-Identifier: MIT
// A force engine: the gravity of N bodies as a second-order system. Positions and masses in,
// accelerations (and the potential energy on request) out; memory, copies and the fused array
// update come from the engine's ArrayDevice (device/array_device.hpp), so an engine holds only
// its physics. Engines by name: nbody/engines.hpp.
#pragma once

#include <span>
#include <string>

#include "orrery/integrate/second_order_system.hpp"

namespace orrery {

template <class Real>
class ForceEngine : public SecondOrderSystem<Real> {
 public:
  virtual std::string name() const = 0;  // "direct", ...

  // The bodies whose gravity acts: masses, and per-particle softening ε_i (empty: the engine's
  // global ε). Called before accelerations; the engine keeps its own copy.
  virtual void set_bodies(std::span<const Real> mass, std::span<const Real> softening) = 0;
  // −G Σ_{i<j} m_i m_j / √(r_ij² + ε_ij²), summed with compensation.
  virtual double potential_energy(const DeviceBuffer<Real>& x) = 0;
};

}  // namespace orrery
