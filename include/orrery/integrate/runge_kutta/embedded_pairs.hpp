// SPDX-License-Identifier: MIT
// Explicit Runge–Kutta methods with an embedded pair (Hairer, Nørsett & Wanner, "Solving Ordinary
// Differential Equations I", §II.4): besides the weights b of the solution the step advances, a
// second set b̂ gives a solution of another order from the same stages, and their difference
//   err = h Σ_i (b_i − b̂_i) k_i
// estimates the local error — the measure a step-size control compares with its tolerance.
// Until that control lands (issue 14) they run at a fixed step like every other tableau, and
// `b_embedded` is what it will use. Coefficients as exact fractions of the published tables,
// rounded to double (see butcher_tableau.hpp on what that means in float128).
#pragma once

#include <array>

#include "orrery/core/hd.hpp"
#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

// The tableau interface of butcher_tableau.hpp read from arrays: T::kA holds a_ij below the
// diagonal row by row (row i has i entries), T::kB, T::kBHat and T::kC the weights and nodes.
template <class T, int S>
struct TabulatedPair {
  static constexpr IntegratorFamily family = IntegratorFamily::explicit_runge_kutta;
  static constexpr int stages = S;
  ORRERY_HD static constexpr double a(int i, int j) {
    return j < i ? T::kA[static_cast<std::size_t>(i * (i - 1) / 2 + j)] : 0.0;
  }
  ORRERY_HD static constexpr double b(int i) { return T::kB[static_cast<std::size_t>(i)]; }
  ORRERY_HD static constexpr double b_embedded(int i) {
    return T::kBHat[static_cast<std::size_t>(i)];
  }
  ORRERY_HD static constexpr double c(int i) { return T::kC[static_cast<std::size_t>(i)]; }
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
  static constexpr std::array<double, 21> kA{
      1.0 / 5,
      3.0 / 40,        9.0 / 40,
      44.0 / 45,       -56.0 / 15,       32.0 / 9,
      19372.0 / 6561,  -25360.0 / 2187,  64448.0 / 6561, -212.0 / 729,
      9017.0 / 3168,   -355.0 / 33,      46732.0 / 5247, 49.0 / 176,   -5103.0 / 18656,
      35.0 / 384,      0.0,              500.0 / 1113,   125.0 / 192,  -2187.0 / 6784, 11.0 / 84};
  static constexpr std::array<double, 7> kB{35.0 / 384,     0.0,         500.0 / 1113,
                                            125.0 / 192,    -2187.0 / 6784, 11.0 / 84, 0.0};
  static constexpr std::array<double, 7> kBHat{5179.0 / 57600, 0.0,           7571.0 / 16695,
                                               393.0 / 640,    -92097.0 / 339200, 187.0 / 2100,
                                               1.0 / 40};
  static constexpr std::array<double, 7> kC{0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
};

// Cash–Karp 5(4) (J. R. Cash & A. H. Karp, ACM Trans. Math. Softw. 16, 201, 1990): 6 stages, the
// 5th-order solution advanced, the 4th the estimate (as in Numerical Recipes' rkck).
struct CashKarp : TabulatedPair<CashKarp, 6> {
  static constexpr const char* name = "cash-karp";
  static constexpr const char* description = "Cash–Karp 5(4), 6 stages (embedded 4th order)";
  static constexpr int order = 5;
  static constexpr int embedded_order = 4;
  static constexpr std::array<double, 15> kA{
      1.0 / 5,
      3.0 / 40,          9.0 / 40,
      3.0 / 10,          -9.0 / 10,    6.0 / 5,
      -11.0 / 54,        5.0 / 2,      -70.0 / 27,     35.0 / 27,
      1631.0 / 55296,    175.0 / 512,  575.0 / 13824,  44275.0 / 110592, 253.0 / 4096};
  static constexpr std::array<double, 6> kB{37.0 / 378,  0.0, 250.0 / 621,
                                            125.0 / 594, 0.0, 512.0 / 1771};
  static constexpr std::array<double, 6> kBHat{2825.0 / 27648,  0.0,           18575.0 / 48384,
                                               13525.0 / 55296, 277.0 / 14336, 1.0 / 4};
  static constexpr std::array<double, 6> kC{0.0, 1.0 / 5, 3.0 / 10, 3.0 / 5, 1.0, 7.0 / 8};
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
  static constexpr std::array<double, 15> kA{
      1.0 / 4,
      3.0 / 32,         9.0 / 32,
      1932.0 / 2197,    -7200.0 / 2197, 7296.0 / 2197,
      439.0 / 216,      -8.0,           3680.0 / 513,    -845.0 / 4104,
      -8.0 / 27,        2.0,            -3544.0 / 2565,  1859.0 / 4104, -11.0 / 40};
  static constexpr std::array<double, 6> kB{25.0 / 216,    0.0,  1408.0 / 2565,
                                            2197.0 / 4104, -0.2, 0.0};
  static constexpr std::array<double, 6> kBHat{16.0 / 135,      0.0,   6656.0 / 12825,
                                               28561.0 / 56430, -0.18, 2.0 / 55};
  static constexpr std::array<double, 6> kC{0.0, 1.0 / 4, 3.0 / 8, 12.0 / 13, 1.0, 1.0 / 2};
};

}  // namespace orrery
