// SPDX-License-Identifier: MIT
// A force engine: the gravity of N bodies as a second-order system. Positions and masses in,
// accelerations (and potentials on request) out; memory, copies and the fused array update come
// from the engine's ArrayDevice (device/array_device.hpp), so an engine holds only its physics
// and particles stay on the engine's device between steps. Engines by name: nbody/engines.hpp.
//
// Every engine computes the same softened Newtonian gravity (exactly, or to the accuracy of its
// approximation, e.g. a tree's opening angle):
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2},
//   φ_i = −G Σ_{j≠i} m_j / (|x_j − x_i|² + ε_ij²)^{1/2},
//   W   = −G Σ_{i<j} m_i m_j / (|x_j − x_i|² + ε_ij²)^{1/2}  (= ½ Σ m_i φ_i).
#pragma once

#include <limits>
#include <span>
#include <string>

#include "orrery/integrate/second_order_system.hpp"

namespace orrery {

// Seconds spent in the parts of an engine's last evaluation (zero for a part it does not have):
// copying positions to the device, building a tree, and the force pass itself.
struct EngineTimings {
  double upload = 0.0;
  double build = 0.0;
  double force = 0.0;
};

template <class Real>
class ForceEngine : public SecondOrderSystem<Real> {
 public:
  virtual std::string name() const = 0;  // "direct", "tree"
  // Where it computes: "cpu", "cuda:0", "cuda:0,1", ...
  virtual std::string backend() const = 0;

  // The bodies whose gravity acts: masses, and per-particle softening ε_i (empty: the engine's
  // global ε). Called before accelerations; the engine keeps its own copy.
  virtual void set_bodies(std::span<const Real> mass, std::span<const Real> softening) = 0;
  // accelerations(x, a) and accelerations_of(x, a, targets) come from SecondOrderSystem (the
  // CPU engines' accelerations_of does work in proportion to the targets). This is the same pass
  // with the potentials φ_i (N values, on device()) as well; a is the same as accelerations()
  // gives.
  virtual void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                            DeviceBuffer<Real>& phi) = 0;
  // W, summed with compensation: over the pairs by direct engines, as ½ Σ m_i φ_i from the
  // engine's own potentials by approximate ones (potential_energy_method() says which).
  virtual double potential_energy(const DeviceBuffer<Real>& x) = 0;
  // How potential_energy() is computed, for a run's output: "pairs" or e.g.
  // "tree potentials (theta 0.5, quadrupole)".
  virtual std::string potential_energy_method() const { return "pairs"; }
  // G in the run's units; NaN from an engine that does not say (a method that needs it, whfast,
  // then refuses the system).
  virtual double gravitational_constant() const { return std::numeric_limits<double>::quiet_NaN(); }
  // The parts of the last evaluation.
  virtual EngineTimings last_timings() const { return {}; }
};

}  // namespace orrery
