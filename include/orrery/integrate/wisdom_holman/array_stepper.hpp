// SPDX-License-Identifier: MIT
// WHFast, the Wisdom–Holman map as REBOUND does it (Wisdom & Holman, AJ 102, 1528, 1991; Rein &
// Tamayo, MNRAS 452, 376, 2015), for N bodies about a central one (body 0). In Jacobi coordinates
// (physics/jacobi_coordinates.hpp: x'_i relative to the barycentre of bodies 0 … i−1, η_i their
// mass with body i's) the Hamiltonian splits into Kepler orbits and their interaction,
//   H = H_K + H_I,   H_K = Σ_{i≥1} [p'_i²/(2m'_i) − G m'_i η_i/|x'_i|],  m'_i = m_i η_{i−1}/η_i,
//   H_I = Σ_{i≥1} G m'_i η_i/|x'_i| − Σ_{i<j} G m_i m_j/|x_i − x_j|,
// and a step of h is drift–kick–drift (kernel "default"):
//   drift h/2   each x'_i, v'_i (i ≥ 1) along its Kepler orbit about μ_i = G η_i
//               (physics/kepler_drift.hpp); the barycentre x'₀ += (h/2) v'₀
//   kick h      v'_i += h (a'_i + G η_i x'_i/|x'_i|³), a' the Jacobi transform of the system's
//               accelerations a(x) at the drifted positions (its one force evaluation)
//   drift h/2
// The bodies' inertial x and v go to Jacobi coordinates at the start of every step and back at
// its end (REBOUND's safe mode), so the stepper keeps no state between steps, and a checkpoint
// holds none. With a corrector of order k (3, 5, 7, 11 or 17) the step is C H C⁻¹, C a product
// of k − 1 operators Z(a, b) = K(a) I(−b) K(−2a) I(b) K(a) (K a Kepler drift, I a kick) with the
// coefficients of Wisdom, Holman & Touma (Fields Inst. Commun. 10, 217, 1996), so the map is
// conjugate to one whose error is O(ε h^k) + O(ε² h²) for perturbations of relative size ε.
//
// It needs G and the masses (set_gravity; Simulation passes its engine's): m₀ > 0, and any other
// mass ≥ 0 — a massless body (a test particle) feels the others and moves none of them.
#pragma once

#include <span>
#include <vector>

#include "orrery/integrate/array_stepper.hpp"

namespace orrery {

template <class Real>
class WhfastArrayStepper final : public ArrayStepper<Real> {
 public:
  // corrector: 0 (none) or one of Whfast::corrector_orders; ParameterError("corrector", ...)
  // otherwise.
  explicit WhfastArrayStepper(int corrector = 0);

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override;
  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override;
  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override;
  void clear() override {}
  void set_gravity(double g, std::span<const Real> mass) override;

 private:
  void kepler(Real h);  // the Kepler orbits of bodies 1 … N−1
  void drift(Real h);   // and the barycentre's straight line
  void kick(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real h);
  void corrector_z(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real a, Real b);
  void correct(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real sign, Real h);

  int corrector_;
  Real g_;
  std::vector<Real> mass_, eta_;
  // Jacobi positions and velocities, inertial scratch and accelerations (3N each, [x…, y…, z…]).
  std::vector<Real> xj_, vj_, inertial_, aj_;
  DeviceBuffer<Real> acceleration_;
};

}  // namespace orrery
