// SPDX-License-Identifier: MIT
// When the fixed-point iteration of an implicit step stops. Δ_k is the size of the k-th sweep's
// change of the stage accelerations, max |A_new − A_old| / max |A_new| (the maximum norm: the
// same whichever order a device visits the elements in, and meaningful in any precision).
//
// In a contraction Δ falls geometrically until rounding dominates; from then on it stagnates.
// So the iteration is converged, to the precision's rounding, as soon as Δ_k = 0 or
// Δ_k ≥ Δ_{k−1} (Hairer, McLachlan & Razakarivony, BIT 48, 231 (2008): the rule that makes an
// implicit method's rounding errors a random walk). No tolerance is involved, so the same rule
// serves fp32, fp64 and float128. Two guards keep it from being fooled or looping forever:
// - a Δ that stops falling while still above 2¹⁰ u (u the unit roundoff: the force's own rounding
//   and that of a sum of stage terms, with room) is not rounding but a slow start or a
//   divergence: the iteration goes on;
// - after kMaxSweeps sweeps, or at a Δ that is not finite, it has failed.
#pragma once

#include <cmath>

namespace orrery {

class FixedPointRule {
 public:
  // float128's 113 bits at a contraction of 1/2 per sweep, from a prediction with no correct bit.
  static constexpr int kMaxSweeps = 128;

  enum class Verdict { iterate, converged, failed };

  // `mantissa_bits`: 24, 53 or 113.
  explicit FixedPointRule(int mantissa_bits)
      : rounding_level_(std::ldexp(1.0, 10 - mantissa_bits)) {}

  // Takes Δ_k of the sweep just made.
  Verdict after_sweep(double change) {
    ++sweeps_;
    const double previous = previous_;
    previous_ = change;
    if (!std::isfinite(change)) return Verdict::failed;
    if (change == 0) return Verdict::converged;
    if (sweeps_ > 1 && change >= previous && previous <= rounding_level_) return Verdict::converged;
    return sweeps_ >= kMaxSweeps ? Verdict::failed : Verdict::iterate;
  }

  int sweeps() const { return sweeps_; }
  double last_change() const { return previous_; }

 private:
  double rounding_level_;
  double previous_ = 0;
  int sweeps_ = 0;
};

}  // namespace orrery
