// SPDX-License-Identifier: MIT
// One step of a splitting method (integrate/splitting/splitting_tables.hpp) for a second-order system
// x'' = a(x) held in registers (a small system integrated by one thread or one SIMD lane):
//
//   for each operation of the table, in order:
//     drift c:  x ← x + c h v          kick d:  v ← v + d h a(x)
//
// The table is unrolled at compile time. Each update is the one-term case of the register
// stepper's contract (integrate/runge_kutta/register_stepper.hpp), so the array stepper's
// ArrayDevice::combine gives the same bits: s = c·k (k itself for c = 1), y ← fma(h, s, y); a zero
// coefficient leaves y as it is. a(x) is evaluated before a kick only when a drift moved x since
// it was last evaluated.
#pragma once

#include "orrery/core/static_for.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"
#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery {

namespace detail {

// y + c h k in the order above.
template <class Op, class T>
ORRERY_HD Vec3<T> split_update(const Vec3<T>& y, const T& h, const Vec3<T>& k) {
  constexpr double c = Op::value.coefficient;
  if constexpr (c == 0.0)
    return y;
  else if constexpr (c == 1.0)
    return mul_add(h, k, y);
  else
    return mul_add(h, broadcast<T>(c) * k, y);
}

template <class Table, int I>
struct SplitOpAt {
  static constexpr SplitOp value = Table::ops[I];
};

// The operations of one step. `a` holds a(s.x) on entry when AccelOnEntry, and on exit when
// AccelOnExit (evaluated at the end if the step ends with a drift).
template <class Table, bool AccelOnEntry, bool AccelOnExit, class T, int N, class Accel>
ORRERY_HD void split_operations(BodyState<T, N>& s, Vec3<T> (&a)[N], const T& h,
                                const Accel& accel) {
  static_for<0, Table::length>([&](auto i) {
    constexpr int I = decltype(i)::value;
    using Op = SplitOpAt<Table, I>;
    if constexpr (Op::value.kind == SplitKind::drift) {
      for (int n = 0; n < N; ++n) s.x[n] = split_update<Op>(s.x[n], h, s.v[n]);
    } else {
      if constexpr (Op::value.coefficient != 0.0 &&
                    !accel_current_before<Table>(I, AccelOnEntry))
        accel(s.x, a);
      for (int n = 0; n < N; ++n) s.v[n] = split_update<Op>(s.v[n], h, a[n]);
    }
  });
  if constexpr (AccelOnExit && !accel_current_before<Table>(Table::length, AccelOnEntry))
    accel(s.x, a);
}

}  // namespace detail

// Advances `s` by one step h. `accel(const Vec3<T> (&x)[N], Vec3<T> (&a)[N])` fills the
// accelerations.
template <class Table, class T, int N, class Accel>
ORRERY_HD void split_step(BodyState<T, N>& s, const T& h, const Accel& accel) {
  Vec3<T> a[N];
  detail::split_operations<Table, false, false>(s, a, h, accel);
}

// The same step for a time loop that keeps a = a(s.x) between steps (fill it once with
// accel(s.x, a) before the first step): a table that ends with a kick then evaluates the forces
// once less per step (leapfrog: one evaluation instead of two). Gives the bits of split_step.
template <class Table, class T, int N, class Accel>
ORRERY_HD void split_step(BodyState<T, N>& s, Vec3<T> (&a)[N], const T& h, const Accel& accel) {
  detail::split_operations<Table, true, true>(s, a, h, accel);
}

}  // namespace orrery
