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
// With a corrector of order k (3, 5, 7, 11 or 17) the map is C H C⁻¹, C a product of k − 1
// operators Z(a, b) = K(a) I(−b) K(−2a) I(b) K(a) (K a Kepler drift, I a kick) with the
// coefficients of Wisdom, Holman & Touma (Fields Inst. Commun. 10, 217, 1996), so it is
// conjugate to one whose error is O(ε h^k) + O(ε² h²) for perturbations of relative size ε.
//
// Two ways to keep the state, which give the same map and differ in rounding and cost:
// - safe (REBOUND's safe_mode = 1): the bodies' inertial x and v go to Jacobi coordinates at the
//   start of every step and back at its end, each step C H C⁻¹; the stepper keeps no state, a
//   checkpoint holds none, and x and v are the state after every step.
// - kept (REBOUND's safe_mode = 0 with keep_unsynchronized = 1): the Jacobi coordinates stay
//   with the stepper from step to step, after the kick, with the last half drift owed; a step
//   is then one drift of h (the owed h/2 and its own first h/2) and a kick, and C is applied at
//   the start only, C⁻¹ and the owed drift only when x and v are read (synchronize(), on a copy,
//   so reading changes no later bit). The stepper is behind() after every step; a checkpoint
//   holds the Jacobi coordinates and the last step's size. A step of another size than the
//   last first settles the owed drift and C⁻¹ of the last size, then starts anew with C.
//
// SABA_n (Laskar & Robutel, Celest. Mech. Dyn. Astron. 80, 39, 2001; REBOUND's saba), n = 1 … 4:
// the same two parts in the symmetric composition
//   e^{c₁hA} e^{d₁hB} e^{c₂hA} … e^{d₁hB} e^{c₁hA}   (n kicks B, n + 1 drifts A),
// with c, d of their Table 1 (SABA1: c₁ = 1/2, d₁ = 1, WHFast's map), whose error is
// O(ε h^{2n}) + O(ε² h²): order 2n in the step while the perturbation's square stays below it.
// It keeps its Jacobi coordinates as whfast does (its last drift owed, joined to the next step's
// first); no corrector.
//
// It needs G and the masses (set_gravity; Simulation passes its engine's): m₀ > 0, and any other
// mass ≥ 0 — a massless body (a test particle) feels the others and moves none of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "orrery/integrate/array_stepper.hpp"

namespace orrery {

template <class Real>
class WhfastArrayStepper final : public ArrayStepper<Real> {
 public:
  // corrector: 0 (none) or one of Whfast::corrector_orders; ParameterError("corrector", ...)
  // otherwise. kept: the Jacobi coordinates kept between steps (above), else safe.
  // saba: 0 (WHFast's drift–kick–drift) or n = 1 … 4, SABA_n (below; n = 1 is WHFast's map);
  // ParameterError("saba", ...) otherwise, and ParameterError("corrector", ...) for a corrector
  // with SABA.
  explicit WhfastArrayStepper(int corrector = 0, bool kept = false, int saba = 0);

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override;
  void save(SecondOrderSystem<Real>&, StepperState<Real>& state) const override;
  void load(SecondOrderSystem<Real>&, const StepperState<Real>& state) override;
  void clear() override { jacobi_current_ = behind_ = false; }
  void set_gravity(double g, std::span<const Real> mass) override;
  bool behind() const override { return behind_; }
  void synchronize(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                   DeviceBuffer<Real>& v) override;

 private:
  void kepler(Real h);  // the Kepler orbits of bodies 1 … N−1
  void drift_one(std::size_t i, Real h);
  void drift(Real h);   // and the barycentre's straight line
  void kick(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real h);
  void corrector_z(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real a, Real b);
  void correct(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, Real sign, Real h);
  // The owed drift of h/2 and C⁻¹, then x and v from the Jacobi coordinates.
  void finish(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x, DeviceBuffer<Real>& v,
              Real h);
  void prepare(ArrayDevice<Real>& device, std::size_t n3);

  int corrector_;
  bool kept_;
  // The step's drifts (one more than its kicks) and kicks, as multiples of h, in their order.
  std::vector<Real> drifts_, kicks_;
  // The Jacobi coordinates hold the state after the last step's kick (kept: the owed drift of
  // last_step_/2 not yet taken); x and v are behind them.
  bool jacobi_current_ = false, behind_ = false;
  Real last_step_{0};
  Real g_;
  std::vector<Real> mass_, eta_;
  std::vector<Real> mu_;               // G η_i, each Kepler orbit's
  std::vector<Real> inverse_eta_;      // 1/η_i
  std::vector<Real> pull_;             // the kick's scratch
  std::vector<std::uint64_t> far_;     // bodies the SIMD drift left to the scalar one
  std::size_t active_ = 0;             // the bodies from here on are massless
  int thread_limit_ = 1;               // the device's threads (the drifts of many bodies)
  // Jacobi positions and velocities, inertial scratch and accelerations (3N each, [x…, y…, z…]).
  std::vector<Real> xj_, vj_, inertial_, aj_;
  std::vector<Real> xj_copy_, vj_copy_;  // kept across synchronize()
  DeviceBuffer<Real> acceleration_;
};

}  // namespace orrery
