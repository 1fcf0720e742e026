// SPDX-License-Identifier: MIT
// One trajectory (or one per SIMD lane) integrated by an embedded Runge–Kutta pair with its own
// step size and error control, from t = 0 to t_end: the agent the CPU lanes and the CUDA kernel
// share when a run has a tolerance (integrate_trajectory, ensemble/ensemble_problem.hpp, is the
// fixed-step one).
//
// Each attempt is rk_embedded_step (runge_kutta/embedded_register_step.hpp; a first-same-as-last
// pair starts from the field its last accepted step evaluated) judged by the step control
// `orrery sim` uses, its factor's power in single precision (runge_kutta/step_control.hpp:
// fast_factor): the error in the maximum norm of
// scaled_error(e, y, y₁, tol, tol) over the state's words (its largest word found without a
// division, then divided once), accepted when ≤ 1, the next step
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

// The type a lane counts in: the lane type itself for SIMD lanes (whose masks select lane
// types), an integer for one trajectory (a GPU thread, whose fp64 units are its kernel's limit
// while its integer units idle), and a selection between two counts by a mask of T.
template <class T>
struct TallyCount {
  using type = T;
  template <class M>
  ORRERY_HD static type select(const M& m, const type& a, const type& b) {
    return lane_select(m, a, b);
  }
};
template <class T>
  requires std::is_floating_point_v<T>
struct TallyCount<T> {
  using type = std::int32_t;
  ORRERY_HD static type select(bool m, type a, type b) { return m ? a : b; }
};

// What a trajectory's control did: steps accepted and rejected and its TrajectoryStatus (counted
// in TallyCount's type), and the first sample it did not reach (samples + 1 when it finished).
template <class T>
struct AdaptiveTally {
  using Count = typename TallyCount<T>::type;
  Count accepted, rejected, status;
  T next_sample;
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
  using Count = typename AdaptiveTally<T>::Count;
  const auto count_if = [](const Mask& m, const Count& a, const Count& b) {
    return TallyCount<T>::select(m, a, b);
  };
  const Count no(0), once(1), most(static_cast<lane_scalar_t<Count>>(kAdaptiveMostSteps));
  const auto sample_time = [&](const T& k) { return adaptive_sample_time(t_end, k, count); };

  T t = zero, h = h0, k = one, target = sample_time(one);
  AdaptiveTally<T> tally{no, no, no, zero};
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

    // The error norm with one division a step rather than one a word (core/error_norm.hpp).
    LargestScaledError<T> largest(System::word(error, 0), System::word(st, 0),
                                  System::word(next, 0), tol, tol);
    Mask finite = lane_abs(System::word(next, 0)) < infinity;  // false for ±∞ and NaN
    ORRERY_UNROLL
    for (int w = 1; w < D; ++w) {
      const T& y1 = System::word(next, w);
      largest.add(System::word(error, w), System::word(st, w), y1, tol, tol);
      finite = finite && lane_abs(y1) < infinity;
    }
    const T err = largest.value();
    const Mask bad = active && !(finite && err == err);
    const Mask ok = active && !bad && Control::accepts(err);
    const T factor = Control::fast_factor(err);
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
    tally.accepted = tally.accepted + count_if(ok, once, no);
    tally.rejected = tally.rejected + count_if(active && !ok && !bad, once, no);

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
    const auto code = [](TrajectoryStatus s) {
      return Count(static_cast<lane_scalar_t<Count>>(s));
    };
    tally.status = count_if(
        bad, code(TrajectoryStatus::non_finite),
        count_if(underflow, code(TrajectoryStatus::step_underflow),
                 count_if(exhausted, code(TrajectoryStatus::too_many_steps), tally.status)));
    active = going && !underflow && !exhausted;
  }
  tally.next_sample = k;
  return tally;
}

}  // namespace orrery
