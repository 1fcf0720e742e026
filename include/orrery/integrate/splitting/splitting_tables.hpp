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
// that Σ c = Σ d = 1 holds exactly where they cannot (Yoshida's), also in float128.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>

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

// Yoshida's symmetric compositions of 2m + 1 leapfrogs with steps w_m h, …, w_1 h, w_0 h, w_1 h, …,
// w_m h (H. Yoshida, Phys. Lett. A 150, 262 (1990), §5; Hairer, Lubich & Wanner, GNI §V.3.2),
// w_0 = 1 − 2 Σ w_i, adjacent half kicks merged: drifts w_m … w_0 … w_m, kicks w_m/2,
// (w_m + w_{m−1})/2, …, (w_1 + w_0)/2, (w_0 + w_1)/2, …, w_m/2. The weights solve the order
// conditions of a symmetric composition of a symmetric method (Σ w = 1, Σ w³ = Σ w⁵ = 0 and the
// commutator conditions: 4 for order 6 with m = 3, 8 for order 8 with m = 7).
//
// In float128 a coefficient's rounding is an error of the method, and one in Σ drifts or Σ kicks
// is an error O(1) in h. So the weights w_1 … w_m are rounded to a common grid 2^−k, coarse enough
// that w_0 and every kick (w_i + w_{i−1})/2 are exact doubles and the drifts and the kicks each sum
// to exactly 1 (checked below, term by term in order); the remaining conditions then hold to the
// grid's size, their error O(h²) and smaller.
namespace detail {

// x rounded to a multiple of 2^−k.
constexpr double on_grid(double x, int k) {
  double scale = 1;
  for (int i = 0; i < k; ++i) scale *= 2;
  const double y = x * scale;
  long long n = static_cast<long long>(y);    // toward zero
  const double rest = y - static_cast<double>(n);  // exact
  n += rest >= 0.5 ? 1 : rest <= -0.5 ? -1 : 0;
  return static_cast<double>(n) / scale;
}

// The operations of the composition with weights w_1 … w_M (w_0 follows from Σ = 1) on grid 2^−k.
template <int M>
constexpr std::array<SplitOp, 4 * M + 3> symmetric_composition(const double (&weights)[M],
                                                               int k) {
  double w[M + 1] = {};  // w[0] = w_0
  double inner = 0;
  for (int i = 0; i < M; ++i) {
    w[i + 1] = on_grid(weights[i], k);
    inner += w[i + 1];
  }
  w[0] = 1 - 2 * inner;
  std::array<SplitOp, 4 * M + 3> ops{};
  int n = 0;
  double previous = 0;  // the weight of the drift before, 0 before the first
  for (int j = -M; j <= M; ++j) {
    const double wj = w[j < 0 ? -j : j];
    ops[n++] = {SplitKind::kick, (previous + wj) / 2};
    ops[n++] = {SplitKind::drift, wj};
    previous = wj;
  }
  ops[n] = {SplitKind::kick, previous / 2};
  return ops;
}

// Whether the drifts and the kicks each sum to 1 exactly, term by term in order (each partial sum
// an exact double: the sums compared are those of the real numbers).
template <std::size_t L>
constexpr bool sums_are_exactly_one(const std::array<SplitOp, L>& ops) {
  for (SplitKind kind : {SplitKind::drift, SplitKind::kick}) {
    double sum = 0;
    for (const SplitOp& op : ops) {
      if (op.kind != kind) continue;
      const double next = sum + op.coefficient;
      if (next - sum != op.coefficient || next - op.coefficient != sum) return false;
      sum = next;
    }
    if (sum != 1.0) return false;
  }
  return true;
}

}  // namespace detail

// Solution A of order 6 (Yoshida 1990, Table 1): w_1 … w_3 to 40 digits, from Newton's method on
// the order conditions started at Yoshida's printed 15 digits; they agree with the 26 digits of
// GNI §V.3.2. Grid 2^−52.
struct Yoshida6 {
  static constexpr const char* name = "yoshida6";
  static constexpr IntegratorFamily family = IntegratorFamily::splitting;
  static constexpr const char* description =
      "Yoshida's 6th-order composition of seven leapfrogs (solution A)";
  static constexpr int order = 6;
  static constexpr double weights[3] = {-1.177679984178871006946415680964315734639,
                                        0.2355732133593581336847931829785346016865,
                                        0.7845136104775572638194976338663498757768};
  static constexpr int grid_exponent = 52;
  static constexpr int length = 15;
  static constexpr std::array<SplitOp, length> ops =
      detail::symmetric_composition(weights, grid_exponent);
  static_assert(detail::sums_are_exactly_one(ops));
};

// Solution D of order 8 (Yoshida 1990, Table 2): of his five solutions the one whose leading
// error term (the composition's terms of degree 9 in h, against the exact flow's) is smallest, by
// far (docs/guide/integrators.md compares them, and the compositions of other authors).
// w_1 … w_7 to 40 digits, by Newton's method on the order conditions from Yoshida's 15 digits
// (accurate to about 10⁻¹²). Grid 2^−51, the finest on which the sums stay exact (w_0 = 1.7,
// partial sums to 1.5).
struct Yoshida8 {
  static constexpr const char* name = "yoshida8";
  static constexpr IntegratorFamily family = IntegratorFamily::splitting;
  static constexpr const char* description =
      "Yoshida's 8th-order composition of fifteen leapfrogs (solution D)";
  static constexpr int order = 8;
  static constexpr double weights[7] = {0.102799849391796440698115131601225862911,
                                        -1.960610232975310807607633376399663640792,
                                        1.938139137622525986579186487443641760954,
                                        -0.1582406353680501752040667767597542477554,
                                        -1.444852236860605157694730657537390354956,
                                        0.2536933365662113541461460206899420760977,
                                        0.9148442462297915667487934898475096045181};
  static constexpr int grid_exponent = 51;
  static constexpr int length = 31;
  static constexpr std::array<SplitOp, length> ops =
      detail::symmetric_composition(weights, grid_exponent);
  static_assert(detail::sums_are_exactly_one(ops));
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
