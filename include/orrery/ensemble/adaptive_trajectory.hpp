// SPDX-License-Identifier: MIT
// One trajectory (or one per SIMD lane) integrated by an embedded Runge–Kutta pair with its own
// step size and error control, from t = 0 to t_end: the agent the CPU lanes and the CUDA kernel
// share when a run has a tolerance (integrate_trajectory, ensemble/ensemble_problem.hpp, is the
// fixed-step one).
//
// Each attempt is rk_embedded_step (runge_kutta/embedded_register_step.hpp; a first-same-as-last
// pair starts from the field its last accepted step evaluated) judged by the step control
// `orrery sim` uses (runge_kutta/step_control.hpp): the error in the maximum norm of
// scaled_error(e, y, y₁, tol, tol) over the state's words, accepted when ≤ 1, the next step
// h·min(5, max(0.2, 0.9·err^(−1/(q+1)))). The samples lie at t_k = t_end·k/K (t_K = t_end), each
// rounded once to the lane type: a step that would pass the next one is shortened to end on it
// exactly, and after such a step the trajectory goes on with the step the control wanted before
// (as `orrery sim` does at its output times). Lanes decide alone: every word of the state, the
// time and the step size is chosen lane by lane (a select), and the loop runs until every lane
// has finished or failed.
//
// A trajectory fails, and stops where it is, when its candidate state is not finite (or its error
// is NaN), when its step size falls below 10⁻¹³ t_end or below what its clock can add (t + h = t),
// or after kAdaptiveMostSteps attempts: never a hang.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/ensemble/ensemble_problem.hpp"
#include "orrery/ensemble/ensemble_run.hpp"
#include "orrery/integrate/runge_kutta/embedded_register_step.hpp"
#include "orrery/integrate/runge_kutta/step_control.hpp"

namespace orrery {

// Why a trajectory of a controlled run ended.
enum class TrajectoryStatus : std::uint8_t {
  finished = 0,        // reached t_end
  step_underflow = 1,  // its step size fell below 10⁻¹³ t_end, or below its clock's resolution
  non_finite = 2,      // its state (or its error estimate) became NaN or infinite
  too_many_steps = 3,  // kAdaptiveMostSteps attempts without reaching t_end
};

// The smallest step, relative to t_end (`orrery sim`'s limit), and the most attempts a
// trajectory may make (counts stay exact integers in float: below 2²⁴).
inline constexpr double kAdaptiveSmallestStep = 1e-13;
inline constexpr double kAdaptiveMostSteps = 1e7;

// What a trajectory's control did, in its lane type: steps accepted and rejected, its
// TrajectoryStatus, and the first sample it did not reach (samples + 1 when it finished).
template <class T>
struct AdaptiveTally {
  T accepted, rejected, status, next_sample;
};

// Whether any lane of a mask holds (a bool for a scalar lane type).
template <class M>
ORRERY_HD bool any_lane(const M& m) {
  if constexpr (std::is_same_v<M, bool>)
    return m;
  else
    return any_of(m);  // std::experimental::any_of, by argument-dependent lookup
}

// No watch over the steps (below): the code of a run without one is the code without the hook.
struct NoStepWatch {};

// Integrates `st` from 0 to t_end with first trial step h0 and tolerance `tol` (absolute and
// relative), calling sample(landed, k, t, state) each time some lanes land on their sample k at
// time t (`landed` says which; k and t are per lane). `st` ends at t_end, or where the trajectory failed.
// A watch, when given, is called after every attempt as watch(before, after, t0, t1) (a lane
// whose step was rejected, or that has stopped, has before = after: ensemble/section_crossing.hpp).
template <class Problem, class Table, class T, class Field, class Sample,
          class Watch = NoStepWatch>
ORRERY_HD AdaptiveTally<T> integrate_adaptive_trajectory(
    typename EnsembleSystem<Problem, T>::State& st, const Field& field, const T& h0,
    const T& t_end, int samples, const T& tol, Sample&& sample, const Watch& watch = {}) {
  constexpr bool watched = !std::is_same_v<Watch, NoStepWatch>;
  using System = EnsembleSystem<Problem, T>;
  using State = typename System::State;
  using Control = EmbeddedStepControl<Table>;
  using Mask = decltype(T() < T());
  constexpr int D = System::D;
  const T zero(0), one(1), count(static_cast<lane_scalar_t<T>>(samples));
  const T smallest = broadcast<T>(kAdaptiveSmallestStep) * t_end;
  const T most = broadcast<T>(kAdaptiveMostSteps);
  const auto sample_time = [&](const T& k) { return adaptive_sample_time(t_end, k, count); };

  T t = zero, h = h0, k = one, target = sample_time(one);
  AdaptiveTally<T> tally{zero, zero, zero, zero};
  Mask active = zero == zero;
  // A first-same-as-last pair (tsit5, dopri5) carries the field at the state from each step to
  // the next: `at` holds f(st) in every lane (st changes only where a step is accepted, and then
  // to the candidate whose field the step evaluated).
  using Carried = FieldAtState<Table, State>;
  [[maybe_unused]] Carried at;
  if constexpr (Carried::carried) at.evaluate(st, field);
  const T infinity = broadcast<T>(std::numeric_limits<double>::infinity());
  while (any_lane(active)) {
    // Shortened to land on the next sample time where the step would reach or pass it.
    const T remaining = target - t;
    const Mask lands = !(remaining > h);
    const T step = lane_select(lands, remaining, h);
    State next, error;
    [[maybe_unused]] Carried at_next;
    if constexpr (Carried::carried)
      rk_embedded_step<Table, ScaleEachTerm>(st, next, error, step, field, &at.value,
                                             &at_next.value);
    else
      rk_embedded_step<Table, ScaleEachTerm>(st, next, error, step, field);

    T err = zero;
    Mask finite = active || !active;
    ORRERY_UNROLL
    for (int w = 0; w < D; ++w) {
      const T& y1 = System::word(next, w);
      const T e = scaled_error(System::word(error, w), System::word(st, w), y1, tol, tol);
      err = lane_select(e > err || e != e, e, err);  // the largest; a NaN stays
      finite = finite && lane_abs(y1) < infinity;    // false for ±∞ and NaN
    }
    const Mask bad = active && !(finite && err == err);
    const Mask ok = active && !bad && Control::accepts(err);
    const T factor = Control::factor(err);
    [[maybe_unused]] const std::conditional_t<watched, State, NoStepWatch> before = [&] {
      if constexpr (watched)
        return st;
      else
        return NoStepWatch{};
    }();
    [[maybe_unused]] const T t_before = t;
    ORRERY_UNROLL
    for (int w = 0; w < D; ++w)
      System::word(st, w) = lane_select(ok, System::word(next, w), System::word(st, w));
    if constexpr (Carried::carried)
      for (int w = 0; w < static_cast<int>(sizeof(at.value) / sizeof(at.value[0])); ++w)
        at.value[w] = lane_select(ok, at_next.value[w], at.value[w]);
    t = lane_select(ok, lane_select(lands, target, t + step), t);
    // The control's step, except after a step shortened onto a sample: then the one it wanted.
    h = lane_select(active && !(ok && lands), step * factor, h);
    if constexpr (watched)
      watch(before, static_cast<const State&>(st), t_before, static_cast<const T&>(t));
    tally.accepted = tally.accepted + lane_select(ok, one, zero);
    tally.rejected = tally.rejected + lane_select(active && !ok && !bad, one, zero);

    const Mask landed = ok && lands;
    if (any_lane(landed)) {  // the next sample time (a division) only where one was reached
      sample(landed, k, static_cast<const T&>(t), static_cast<const State&>(st));
      k = lane_select(landed, k + one, k);
      target = lane_select(landed, sample_time(k), target);
    }
    const Mask finished = landed && k > count;
    const Mask going = active && !finished && !bad;
    const Mask underflow = going && !(h >= smallest && t + h > t);
    const Mask exhausted = going && !underflow && !(tally.accepted + tally.rejected < most);
    tally.status = lane_select(
        bad, T(static_cast<lane_scalar_t<T>>(TrajectoryStatus::non_finite)),
        lane_select(underflow, T(static_cast<lane_scalar_t<T>>(TrajectoryStatus::step_underflow)),
                    lane_select(exhausted,
                                T(static_cast<lane_scalar_t<T>>(TrajectoryStatus::too_many_steps)),
                                tally.status)));
    active = going && !underflow && !exhausted;
  }
  tally.next_sample = k;
  return tally;
}

}  // namespace orrery
