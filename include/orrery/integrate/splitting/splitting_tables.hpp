// SPDX-License-Identifier: MIT
// Symplectic splitting methods for x'' = a(x), H = T(v) + V(x), as sequences of drifts and kicks
// (Hairer, Lubich & Wanner, "Geometric Numerical Integration", 2nd ed., §II.5 and §VI.3):
//
//   drift c:  x ← x + c h v          (the exact flow of T for time c h)
//   kick  d:  v ← v + d h a(x)       (the exact flow of V for time d h)
//
// applied in the table's order. Each drift and kick is a symplectic map, so their composition is
// symplectic; a palindromic table is also time-symmetric (a step with −h undoes a step with h).
// Consistency needs Σ c = Σ d = 1; higher orders need the conditions of the reference each table
// names. A table is a type with constexpr data, so one table serves the register stepper
// (splitting/register_stepper.hpp) and the array stepper (splitting/array_stepper.hpp) alike.
// Coefficients are doubles; those below are exact in binary where they can be (1/2) and chosen so
// that Σ c = Σ d = 1 holds exactly where they cannot (Yoshida's).
#pragma once

#include <concepts>

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

enum class SplitKind { drift, kick };

struct SplitOp {
  SplitKind kind;
  double coefficient;
};

// Symplectic (semi-implicit) Euler, order 1 (GNI §VI.3, the variant explicit in v):
// v_{n+1} = v_n + h a(x_n), x_{n+1} = x_n + h v_{n+1}. Unlike explicit Euler, it moves with the
// new velocity, which makes it symplectic.
struct SymplecticEuler {
  static constexpr const char* name = "symplectic-euler";
  static constexpr IntegratorFamily family = IntegratorFamily::splitting;
  static constexpr const char* description = "symplectic (semi-implicit) Euler: kick, then drift";
  static constexpr int order = 1;
  static constexpr int length = 2;
  static constexpr SplitOp ops[length] = {{SplitKind::kick, 1.0}, {SplitKind::drift, 1.0}};
};

// Leapfrog kick-drift-kick (Störmer–Verlet, velocity Verlet; L. Verlet, Phys. Rev. 159, 98
// (1967); Hairer, Lubich & Wanner, Acta Numerica 12, 399 (2003)), order 2, time-symmetric: half
// kick, drift, half kick. The last kick's a(x) is the next step's first.
struct LeapfrogKDK {
  static constexpr const char* name = "leapfrog";
  static constexpr IntegratorFamily family = IntegratorFamily::splitting;
  static constexpr const char* description = "leapfrog kick-drift-kick (velocity Verlet)";
  static constexpr int order = 2;
  static constexpr int length = 3;
  static constexpr SplitOp ops[length] = {
      {SplitKind::kick, 0.5}, {SplitKind::drift, 1.0}, {SplitKind::kick, 0.5}};
};

// Yoshida's fourth-order method (H. Yoshida, Phys. Lett. A 150, 262 (1990)): the
// symmetric composition of three leapfrogs with steps w1 h, w0 h, w1 h,
//
//   w1 = 1/(2 − 2^{1/3}),  w0 = −2^{1/3}/(2 − 2^{1/3}) = 1 − 2 w1,
//
// whose order conditions are 2 w1 + w0 = 1 and 2 w1³ + w0³ = 0. Adjacent half kicks of the
// composed leapfrogs merge, leaving four kicks and three drifts (the same method as Forest &
// Ruth, Physica D 43, 105 (1990)). w1 is the double nearest the real number; w0 = 1 − 2 w1 and
// (1 − w1)/2 are then exact in binary, so the drifts and the kicks each sum to 1 exactly and
// 2 w1³ + w0³ = 5·10⁻¹⁶ (the rounding of w1).
namespace yoshida {
inline constexpr double w1 = 1.3512071919596576340476878089714608;
inline constexpr double w0 = 1.0 - 2.0 * w1;
}  // namespace yoshida

struct Yoshida4 {
  static constexpr const char* name = "yoshida4";
  static constexpr IntegratorFamily family = IntegratorFamily::splitting;
  static constexpr const char* description = "Yoshida's 4th-order composition of three leapfrogs";
  static constexpr int order = 4;
  static constexpr int length = 7;
  static constexpr SplitOp ops[length] = {
      {SplitKind::kick, yoshida::w1 / 2},        {SplitKind::drift, yoshida::w1},
      {SplitKind::kick, (1.0 - yoshida::w1) / 2}, {SplitKind::drift, yoshida::w0},
      {SplitKind::kick, (1.0 - yoshida::w1) / 2}, {SplitKind::drift, yoshida::w1},
      {SplitKind::kick, yoshida::w1 / 2}};
};

// A type is a splitting table when it has a sequence of drift/kick operations.
template <class T>
concept SplittingTable = requires {
  { T::length } -> std::convertible_to<int>;
  { T::ops[0] } -> std::convertible_to<SplitOp>;
};

// Whether a(x) is current before operation i: true when a kick came after the last drift
// (kicks do not move x), `on_entry` when no drift came before i. Zero coefficients do nothing.
// Evaluated at compile time inside the register stepper, hence ORRERY_HD.
template <SplittingTable Table>
ORRERY_HD constexpr bool accel_current_before(int i, bool on_entry) {
  for (int j = i - 1; j >= 0; --j) {
    if (Table::ops[j].coefficient == 0.0) continue;
    return Table::ops[j].kind == SplitKind::kick;
  }
  return on_entry;
}

// Whether the step ends with a kick, so its a(x) is the next step's first (first same as last).
template <SplittingTable Table>
constexpr bool first_same_as_last() {
  return accel_current_before<Table>(Table::length, false);
}

// Force evaluations per step once steps follow each other: one per kick that comes after a drift,
// the table read cyclically (a step ending with a kick hands its a(x) on).
template <SplittingTable Table>
constexpr int force_evaluations_per_step() {
  int count = 0;
  bool current = first_same_as_last<Table>();
  for (int i = 0; i < Table::length; ++i) {
    const SplitOp op = Table::ops[i];
    if (op.coefficient == 0.0) continue;
    if (op.kind == SplitKind::drift) {
      current = false;
    } else if (!current) {
      ++count;
      current = true;
    }
  }
  return count;
}

}  // namespace orrery
