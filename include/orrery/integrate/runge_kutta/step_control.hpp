// SPDX-License-Identifier: MIT
// The step-size control of an embedded Runge–Kutta pair (Hairer, Nørsett & Wanner, "Solving
// ODEs I", §II.4), written once for every lane type: the array stepper of `orrery sim`
// (runge_kutta/adaptive_array_stepper.hpp, in double) and each trajectory of an ensemble
// (ensemble/adaptive_trajectory.hpp, in the run's float or double, per GPU thread or SIMD lane).
//
//   the error of a step           the largest over the components of scaled_error(e_i, y_i, y₁_i,
//                                 tol, tol) (core/error_norm.hpp), e = h Σ (b_i − b̂_i) k_i;
//                                 err ≤ 1 accepts
//   the next step                 h · min(5, max(0.2, 0.9 · err^(−1/(q+1)))), q the lower order
//                                 of the pair; 5 where err = 0
//
// A NaN error rejects (err ≤ 1 fails) and gives a NaN factor, which the callers treat as a
// failure of the step (sim: the step size "fell"; an ensemble: the trajectory is flagged).
#pragma once

#include <algorithm>

#include "orrery/core/error_norm.hpp"
#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/core/lane_power.hpp"

namespace orrery {

template <class Tableau>
struct EmbeddedStepControl {
  // The error of the lower-order solution falls as h^(q+1).
  static constexpr double kErrorExponent =
      1.0 / ((Tableau::order < Tableau::embedded_order ? Tableau::order : Tableau::embedded_order) +
             1);
  // The usual safety factor and bounds on how fast the step may change.
  static constexpr double kSafety = 0.9, kMinFactor = 0.2, kMaxFactor = 5.0;

  // The factor from this step to the next, the power in the lane type: `orrery sim`'s controlled
  // steps (a chaotic run's step sequence, which its users reproduce, stays what it was; beside a
  // step of N bodies the power costs nothing).
  template <class T>
  ORRERY_HD static T factor(const T& err) {
    return clamped(broadcast<T>(kSafety) * lane_pow(err, broadcast<T>(-kErrorExponent)), err);
  }

  // The same factor with the power taken in single precision whatever the lane type, and on a GPU
  // by its special-function unit (core/lane_power.hpp: lane_pow_approx): the ensembles' steps,
  // where an fp64 pow is about a third of the fp64 instructions of a controlled step on a GPU
  // (Lorenz, tsit5: its call and special cases against ~200 for the step itself). The factor only
  // sizes the next trial step, while whether a step is accepted is decided by the error in the
  // state's own precision. An error outside float's range ends at the clamp's bound either way
  // (0 → 5, +∞ → 0.2), and a NaN passes through.
  template <class T>
  ORRERY_HD static T fast_factor(const T& err) {
    using Narrow = rebind_t<float, T>;
    const Narrow e = convert<Narrow>(err);
    return convert<T>(
        clamped(broadcast<Narrow>(kSafety) * lane_pow_approx(e, broadcast<Narrow>(-kErrorExponent)),
                e));
  }

  // Whether a step of that error is accepted (false for NaN).
  template <class T>
  ORRERY_HD static auto accepts(const T& err) {
    return err <= T(1);
  }

 private:
  // std::clamp(f, 0.2, 5) lane by lane (a NaN passes through), and 5 where err = 0.
  template <class T>
  ORRERY_HD static T clamped(const T& f, const T& err) {
    const T lo = broadcast<T>(kMinFactor), hi = broadcast<T>(kMaxFactor);
    return lane_select(err == T(0), hi, lane_select(f < lo, lo, lane_select(hi < f, hi, f)));
  }
};

}  // namespace orrery
