// SPDX-License-Identifier: MIT
// Explicit Runge–Kutta methods with an embedded pair (Hairer, Nørsett & Wanner, "Solving Ordinary
// Differential Equations I", §II.4): besides the weights b of the solution the step advances, a
// second set b̂ gives a solution of another order from the same stages, and their difference
//   err = h Σ_i (b_i − b̂_i) k_i
// estimates the local error — the measure a step-size control compares with its tolerance.
// Until that control lands (issue 14) they run at a fixed step like every other tableau, and
// `b_embedded` is what it will use. Coefficients as the exact fractions of the published tables
// (runge_kutta/coefficient.hpp: rounded once to each precision).
#pragma once

#include <array>

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"
#include "orrery/integrate/runge_kutta/coefficient.hpp"

namespace orrery {

// The tableau interface of butcher_tableau.hpp read from arrays of RkCoefficients: T::kA holds
// a_ij below the diagonal row by row (row i has i entries), or, for a large sparse table, only
// its nonzero entries as RkEntry {i, j, a_ij}; T::kB and T::kC the weights and nodes; T::kBHat
// the second weights, or T::kE the error weights b − b̂ where the method is published that way.
template <class T, int S>
struct TabulatedPair {
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr int stages = S;
  ORRERY_HD static constexpr RkCoefficient a(int i, int j) {
    if constexpr (requires { T::kA[0].row; }) {
      for (const RkEntry& e : T::kA)
        if (e.row == i && e.column == j) return e.value;
      return {};
    } else {
      return j < i ? T::kA[static_cast<std::size_t>(i * (i - 1) / 2 + j)] : RkCoefficient{};
    }
  }
  ORRERY_HD static constexpr RkCoefficient b(int i) { return T::kB[static_cast<std::size_t>(i)]; }
  ORRERY_HD static constexpr RkCoefficient b_embedded(int i)
    requires requires { T::kBHat; }
  {
    return T::kBHat[static_cast<std::size_t>(i)];
  }
  ORRERY_HD static constexpr RkCoefficient error_weight(int i)
    requires requires { T::kE; }
  {
    return T::kE[static_cast<std::size_t>(i)];
  }
  ORRERY_HD static constexpr RkCoefficient c(int i) { return T::kC[static_cast<std::size_t>(i)]; }
};

// Dormand–Prince 5(4) (J. R. Dormand & P. J. Prince, J. Comput. Appl. Math. 6, 19, 1980;
// Hairer–Nørsett–Wanner Table II.5.2): 7 stages, the 5th-order solution advanced, the 4th the
// estimate; the last stage is f at the new point (first same as last for a controlled step).
struct DormandPrince5 : TabulatedPair<DormandPrince5, 7> {
  static constexpr const char* name = "dopri5";
  static constexpr const char* description =
      "Dormand–Prince 5(4), 7 stages (embedded 4th order)";
  static constexpr int order = 5;
  static constexpr int embedded_order = 4;
  static constexpr std::array<RkCoefficient, 21> kA{
      fraction(1, 5),
      fraction(3, 40), fraction(9, 40),
      fraction(44, 45), fraction(-56, 15), fraction(32, 9),
      fraction(19372, 6561), fraction(-25360, 2187), fraction(64448, 6561), fraction(-212, 729),
      fraction(9017, 3168), fraction(-355, 33), fraction(46732, 5247), fraction(49, 176),
      fraction(-5103, 18656),
      fraction(35, 384), fraction(0), fraction(500, 1113), fraction(125, 192),
      fraction(-2187, 6784), fraction(11, 84)};
  static constexpr std::array<RkCoefficient, 7> kB{
      fraction(35, 384), fraction(0), fraction(500, 1113), fraction(125, 192),
      fraction(-2187, 6784), fraction(11, 84), fraction(0)};
  static constexpr std::array<RkCoefficient, 7> kBHat{
      fraction(5179, 57600), fraction(0), fraction(7571, 16695), fraction(393, 640),
      fraction(-92097, 339200), fraction(187, 2100), fraction(1, 40)};
  static constexpr std::array<RkCoefficient, 7> kC{
      fraction(0), fraction(1, 5), fraction(3, 10), fraction(4, 5), fraction(8, 9), fraction(1),
      fraction(1)};
};

// Cash–Karp 5(4) (J. R. Cash & A. H. Karp, ACM Trans. Math. Softw. 16, 201, 1990): 6 stages, the
// 5th-order solution advanced, the 4th the estimate (as in Numerical Recipes' rkck).
struct CashKarp : TabulatedPair<CashKarp, 6> {
  static constexpr const char* name = "cash-karp";
  static constexpr const char* description = "Cash–Karp 5(4), 6 stages (embedded 4th order)";
  static constexpr int order = 5;
  static constexpr int embedded_order = 4;
  static constexpr std::array<RkCoefficient, 15> kA{
      fraction(1, 5),
      fraction(3, 40), fraction(9, 40),
      fraction(3, 10), fraction(-9, 10), fraction(6, 5),
      fraction(-11, 54), fraction(5, 2), fraction(-70, 27), fraction(35, 27),
      fraction(1631, 55296), fraction(175, 512), fraction(575, 13824), fraction(44275, 110592),
      fraction(253, 4096)};
  static constexpr std::array<RkCoefficient, 6> kB{
      fraction(37, 378), fraction(0), fraction(250, 621), fraction(125, 594), fraction(0),
      fraction(512, 1771)};
  static constexpr std::array<RkCoefficient, 6> kBHat{
      fraction(2825, 27648), fraction(0), fraction(18575, 48384), fraction(13525, 55296),
      fraction(277, 14336), fraction(1, 4)};
  static constexpr std::array<RkCoefficient, 6> kC{
      fraction(0), fraction(1, 5), fraction(3, 10), fraction(3, 5), fraction(1), fraction(7, 8)};
};

// Runge–Kutta–Fehlberg 4(5) (E. Fehlberg, NASA TR R-315, 1969; Hairer–Nørsett–Wanner Table
// II.5.1): 6 stages, the 4th-order solution advanced as Fehlberg designed it, the 5th the
// estimate.
struct Fehlberg45 : TabulatedPair<Fehlberg45, 6> {
  static constexpr const char* name = "fehlberg45";
  static constexpr const char* description =
      "Runge–Kutta–Fehlberg 4(5), 6 stages (embedded 5th order)";
  static constexpr int order = 4;
  static constexpr int embedded_order = 5;
  static constexpr std::array<RkCoefficient, 15> kA{
      fraction(1, 4),
      fraction(3, 32), fraction(9, 32),
      fraction(1932, 2197), fraction(-7200, 2197), fraction(7296, 2197),
      fraction(439, 216), fraction(-8), fraction(3680, 513), fraction(-845, 4104),
      fraction(-8, 27), fraction(2), fraction(-3544, 2565), fraction(1859, 4104), fraction(-11, 40)};
  static constexpr std::array<RkCoefficient, 6> kB{
      fraction(25, 216), fraction(0), fraction(1408, 2565), fraction(2197, 4104), fraction(-1, 5),
      fraction(0)};
  static constexpr std::array<RkCoefficient, 6> kBHat{
      fraction(16, 135), fraction(0), fraction(6656, 12825), fraction(28561, 56430),
      fraction(-9, 50), fraction(2, 55)};
  static constexpr std::array<RkCoefficient, 6> kC{
      fraction(0), fraction(1, 4), fraction(3, 8), fraction(12, 13), fraction(1), fraction(1, 2)};
};

}  // namespace orrery
