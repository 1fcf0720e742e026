// SPDX-License-Identifier: MIT
// One step of a splitting method (integrate/splitting/splitting_tables.hpp) for a second-order system
// x'' = a(x) held in registers (a small system integrated by one thread or one SIMD lane; any
// element type, integrate/phase_state.hpp):
//
//   for each operation of the table, in order:
//     drift c:  x ← x + c h v          kick d:  v ← v + d h a(x)
//
// The table is unrolled at compile time. Each update is the one-term case of the register
// stepper's contract (integrate/step_arithmetic.hpp); with SumThenScale the array stepper's
// ArrayDevice::combine gives the same bits: s = c·k (k itself for c = 1), y ← fma(h, s, y); a zero
// coefficient leaves y as it is. a(x) is evaluated before a kick only when a drift moved x since
// it was last evaluated.
//
// split_run advances m steps at once for a table that starts and ends with a kick (leapfrog, the
// Yoshida compositions): the last kick of a step and the first of the next are one kick of their
// summed coefficient (the method's "merged half kicks"), which saves two updates a step and
// rounds differently from m calls of split_step.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "orrery/core/static_for.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/phase_state.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"
#include "orrery/integrate/step_arithmetic.hpp"

namespace orrery {

namespace detail {

// y + c h k in the order above.
template <class Op, class Arithmetic, class E>
ORRERY_HD E split_update(const E& y, const element_lane_t<E>& h, const E& k) {
  using T = element_lane_t<E>;
  constexpr double c = Op::value.coefficient;
  if constexpr (c == 0.0)
    return y;
  else if constexpr (c == 1.0)
    return mul_add(h, k, y);
  else if constexpr (std::is_same_v<Arithmetic, ScaleEachTerm>)
    return mul_add(h * broadcast<T>(c), k, y);
  else
    return mul_add(h, broadcast<T>(c) * k, y);
}

template <class Table, int I>
struct SplitOpAt {
  static constexpr SplitOp value = Table::ops[I];
};

// The operations of one step. `a` holds a(s.x) on entry when AccelOnEntry, and on exit when
// AccelOnExit (evaluated at the end if the step ends with a drift).
template <class Table, bool AccelOnEntry, bool AccelOnExit, class Arithmetic, class E, int N,
          class Accel>
ORRERY_HD void split_operations(PhaseState<E, N>& s, E (&a)[N], const element_lane_t<E>& h,
                                const Accel& accel) {
  static_for<0, Table::length>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Op = SplitOpAt<Table, I>;
    if constexpr (Op::value.kind == SplitKind::drift) {
      for (int n = 0; n < N; ++n) s.x[n] = split_update<Op, Arithmetic>(s.x[n], h, s.v[n]);
    } else {
      if constexpr (Op::value.coefficient != 0.0 &&
                    !accel_current_before<Table>(I, AccelOnEntry))
        accel(s.x, a);
      for (int n = 0; n < N; ++n) s.v[n] = split_update<Op, Arithmetic>(s.v[n], h, a[n]);
    }
  });
  if constexpr (AccelOnExit && !accel_current_before<Table>(Table::length, AccelOnEntry))
    accel(s.x, a);
}

// Operations [Begin, End) of a table, the last one's coefficient raised by `Extra` (a kick merged
// with the next step's first): the pieces of split_run.
template <class Table, int Begin, int End, bool MergeFirst>
struct SplitPiece {
  static constexpr int length = End - Begin;
  static constexpr std::array<SplitOp, length> ops = [] {
    std::array<SplitOp, length> o{};
    for (int i = 0; i < length; ++i) o[i] = Table::ops[Begin + i];
    if (MergeFirst) o[length - 1].coefficient += Table::ops[0].coefficient;
    return o;
  }();
};

template <class Table>
constexpr bool kick_at_both_ends() {
  return Table::length >= 2 && Table::ops[0].kind == SplitKind::kick &&
         Table::ops[Table::length - 1].kind == SplitKind::kick;
}

}  // namespace detail

// Advances `s` by one step h. `accel(const E (&x)[N], E (&a)[N])` fills the accelerations.
template <class Table, class Arithmetic = SumThenScale, class E, int N, class Accel>
ORRERY_HD void split_step(PhaseState<E, N>& s, const element_lane_t<E>& h, const Accel& accel) {
  E a[N];
  detail::split_operations<Table, false, false, Arithmetic>(s, a, h, accel);
}

// The same step for a time loop that keeps a = a(s.x) between steps (fill it once with
// accel(s.x, a) before the first step): a table that ends with a kick then evaluates the forces
// once less per step (leapfrog: one evaluation instead of two). Gives the bits of split_step.
template <class Table, class Arithmetic = SumThenScale, class E, int N, class Accel>
ORRERY_HD void split_step(PhaseState<E, N>& s, E (&a)[N], const element_lane_t<E>& h,
                          const Accel& accel) {
  detail::split_operations<Table, true, true, Arithmetic>(s, a, h, accel);
}

// Advances `s` by m ≥ 1 steps h with the kicks between steps merged (above), a = a(s.x) kept as
// for split_step. A table that does not start and end with a kick takes m plain steps.
template <class Table, class Arithmetic = SumThenScale, class E, int N, class Accel>
ORRERY_HD void split_run(PhaseState<E, N>& s, E (&a)[N], const element_lane_t<E>& h,
                         std::int64_t m, const Accel& accel) {
  if constexpr (detail::kick_at_both_ends<Table>()) {
    constexpr int L = Table::length;
    using Head = detail::SplitPiece<Table, 0, 1, false>;
    using Body = detail::SplitPiece<Table, 1, L, true>;
    using Tail = detail::SplitPiece<Table, 1, L, false>;
    detail::split_operations<Head, true, true, Arithmetic>(s, a, h, accel);
    for (std::int64_t i = 1; i < m; ++i)
      detail::split_operations<Body, true, true, Arithmetic>(s, a, h, accel);
    detail::split_operations<Tail, true, true, Arithmetic>(s, a, h, accel);
  } else {
    for (std::int64_t i = 0; i < m; ++i) split_step<Table, Arithmetic>(s, a, h, accel);
  }
}

}  // namespace orrery
