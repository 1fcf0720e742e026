// SPDX-License-Identifier: MIT
// Crossings of a surface of section y_w = c (a Poincaré section: for Hénon–Heiles x = 0 with
// px > 0, Hénon & Heiles, Astron. J. 69, 73 (1964)), located by Hénon's trick (M. Hénon, "On
// the numerical computation of Poincaré maps", Physica D 5, 412 (1982)):
//
//   a step from y_n (time t_n) to y_{n+1} crosses the section where g = y_w − c changes sign;
//   the crossing is then reached by one step of the system with y_w as independent variable,
//
//       dy/ds = F(y) / F_w(y),   dt/ds = 1 / F_w(y),   from s = y_w(from) to s = c,
//
//   F the full first-order right-hand side ((v, a(q)), or f(y)), F_w its component w, taken
//   from whichever end of the step is nearer the section (|Δs| the smaller).
//
// Why this and not dense output: the transformed system is an ordinary ODE, so one step of an
// explicit Runge–Kutta method of order p lands on the section with local error O(|Δs|^{p+1}) —
// no interpolant, no root iteration, no extra state carried between steps, and the same few
// instructions on a SIMD lane and a GPU thread. Every register integrator is covered: an
// explicit Runge–Kutta method takes the step with its own table (exact to its order, Hénon's
// point); a splitting or Adams method, whose tables cannot step this non-separable system,
// with classic RK4 up to order 4 and DOP853's eighth-order solution above (yoshida6, yoshida8),
// so the location is never less accurate than the trajectory it is located on.
//
// Direction: up (g goes from < 0 to ≥ 0, so dy_w/dt > 0 there), down (from > 0 to ≤ 0), or
// both. A step landing exactly on the section counts once (the next step starts at g = 0). Two
// crossings within one step (a step longer than the motion across the section) are not seen.
#pragma once

#include <cstdint>
#include <type_traits>

#include "orrery/core/hd.hpp"
#include "orrery/core/hd_math.hpp"
#include "orrery/ensemble/adaptive_trajectory.hpp"
#include "orrery/ensemble/ensemble_problem.hpp"
#include "orrery/ensemble/ensemble_section.hpp"
#include "orrery/integrate/runge_kutta/butcher_tableau.hpp"
#include "orrery/integrate/runge_kutta/dop853.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery {

// Words of one recorded crossing: the state, then the time.
template <class Problem>
inline constexpr int kSectionRecordWords = EnsembleSystem<Problem, double>::D + 1;

// The table of the step in s (above): the method's own for explicit Runge–Kutta, else one of at
// least its order.
template <class Table>
using SectionTable = std::conditional_t<
    Table::family == IntegratorFamily::explicit_runge_kutta, Table,
    std::conditional_t<(Table::order <= 4), ClassicRK4, DormandPrince853>>;

// Word w (a run-time index) of D values, chosen without indexing so that a GPU thread's state
// stays in registers.
template <int D, class T>
ORRERY_HD T pick_word(const T (&y)[D], int w) {
  T v = y[0];
  ORRERY_UNROLL
  for (int d = 1; d < D; ++d)
    if (d == w) v = y[d];
  return v;
}

// The right-hand side of the system in s: (F/F_w, 1/F_w) over the words (y, t).
template <class Problem, class T, class Field>
struct SectionField {
  static constexpr int C = Problem::coordinates, D = EnsembleSystem<Problem, T>::D;
  const Field& field;
  int w;
  ORRERY_HD void operator()(const T (&x)[D + 1], T (&dx)[D + 1]) const {
    T f[D];
    if constexpr (Problem::second_order) {
      T q[C], a[C];
      ORRERY_UNROLL
      for (int i = 0; i < C; ++i) q[i] = x[i], f[i] = x[C + i];
      field(q, a);
      ORRERY_UNROLL
      for (int i = 0; i < C; ++i) f[C + i] = a[i];
    } else {
      T y[D];
      ORRERY_UNROLL
      for (int i = 0; i < D; ++i) y[i] = x[i];
      field(y, f);
    }
    const T inv = T(1) / pick_word<D>(f, w);
    ORRERY_UNROLL
    for (int i = 0; i < D; ++i) dx[i] = f[i] * inv;
    dx[D] = inv;
  }
};

// The step in s itself: x (the D words and the time at the nearer end) advanced by ds with
// Method (SectionTable), y_w the independent variable. Named by the method of the step, not by
// the trajectory's integrator, so that integrators sharing a method can share its code: the CPU
// lanes call one copy out of line per method, field and lane type (ensemble/cpu/lane_block.hpp)
// where inlined into every integrator's watch it was a third of their compile time.
template <class Problem, class Method, class T, class Field>
struct SectionLocate {
  template <class X>
  ORRERY_HD static void step(X& x, const T& ds, const Field& field, int word) {
    rk_step<Method, ScaleEachTerm>(x, ds, SectionField<Problem, T, Field>{field, word});
  }
};

// Watches the steps of a trajectory (or one per lane) for crossings: called with the state
// before and after each step and their times, it calls record(crossed, y, t) — `crossed` a bool
// or a lane mask, y the D words at the section and t the time — whenever some lane crossed.
// Locate<Problem, Method, T, Field>::step takes the step in s (SectionLocate, inline, unless
// the caller keeps it out of line).
template <class Problem, class Table, class T, class Field, class Record,
          template <class, class, class, class> class Locate = SectionLocate>
struct SectionWatch {
  using System = EnsembleSystem<Problem, T>;
  using State = typename System::State;
  using Mask = decltype(T() < T());
  static constexpr int D = System::D;
  const Field& field;
  int word, direction;
  T value;
  Record record;

  ORRERY_HD void operator()(const State& before, const State& after, const T& t0,
                            const T& t1) const {
    T y0[D], y1[D];
    ORRERY_UNROLL
    for (int d = 0; d < D; ++d) y0[d] = System::word(before, d), y1[d] = System::word(after, d);
    const T zero(0);
    const T g0 = pick_word<D>(y0, word) - value, g1 = pick_word<D>(y1, word) - value;
    const Mask up = g0 < zero && !(g1 < zero), down = g0 > zero && !(g1 > zero);
    Mask crossed = up;
    if (direction < 0) crossed = down;
    if (direction == 0) crossed = up || down;
    if (!any_lane(crossed)) return;
    // From the nearer end: Δs = c − y_w there.
    const Mask from_start = !(lane_select(g1 < zero, -g1, g1) < lane_select(g0 < zero, -g0, g0));
    FirstOrderState<T, D + 1> x;
    ORRERY_UNROLL
    for (int d = 0; d < D; ++d) x.y[d] = lane_select(from_start, y0[d], y1[d]);
    x.y[D] = lane_select(from_start, t0, t1);
    const T ds = -lane_select(from_start, g0, g1);
    Locate<Problem, SectionTable<Table>, T, Field>::step(x, ds, field, word);
    T y[D];
    ORRERY_UNROLL
    for (int d = 0; d < D; ++d) y[d] = d == word ? value : x.y[d];
    record(crossed, static_cast<const T(&)[D]>(y), static_cast<const T&>(x.y[D]));
  }
};

template <class Problem, class Table, class T,
          template <class, class, class, class> class Locate = SectionLocate, class Field,
          class Record>
ORRERY_HD SectionWatch<Problem, Table, T, Field, Record, Locate> watch_section(
    const Field& field, const EnsembleSection& s, Record record) {
  return {field, s.word, s.direction, T(static_cast<lane_scalar_t<T>>(s.value)), record};
}

// integrate_trajectory (ensemble/ensemble_problem.hpp) one step at a time, each watched:
// watch(before, after, t0, t1). A splitting method takes whole steps (its kicks not merged
// across steps), so that every step ends with positions and momenta at the same time; its
// final state rounds differently from the unwatched run's.
template <class Problem, class Table, class T, class Field, class Sample, class Watch>
ORRERY_HD void integrate_watched_trajectory(typename EnsembleSystem<Problem, T>::State& st,
                                            const Field& field, const T& dt, std::int64_t steps,
                                            int samples, Sample&& sample, const Watch& watch) {
  using System = EnsembleSystem<Problem, T>;
  using Integrator = typename System::template Integrator<Table>;
  using R = lane_scalar_t<T>;
  typename Integrator::Memory memory{};  // as integrate_trajectory's: no read of unset history
  Integrator::start(st, memory, field);
  std::int64_t done = 0;
  T t0(0);
  for (int k = 1; k <= samples; ++k) {
    const std::int64_t until = steps * k / samples;
    for (; done < until; ++done) {
      const typename System::State before = st;
      Integrator::step(st, memory, dt, done < Integrator::starter_steps, field);
      const T t1 = T(static_cast<R>(done + 1)) * dt;
      watch(before, static_cast<const typename System::State&>(st), t0, t1);
      t0 = t1;
    }
    sample(k, static_cast<const typename System::State&>(st));
  }
}

}  // namespace orrery
