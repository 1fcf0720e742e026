// SPDX-License-Identifier: MIT
// Verner's 6(5) pair (J. H. Verner, "Explicit Runge–Kutta methods with estimates of the local
// truncation error", SIAM J. Numer. Anal. 15, 772, 1978; the pair of IMSL's DVERK, Hull, Enright
// & Jackson 1976): 8 stages, the 6th-order solution advanced, the 5th the estimate. Exact
// fractions as published.
// The tables list a's nonzero entries (stage indices from 0) and every weight and node; each
// coefficient is rounded once to the run's precision (runge_kutta/coefficient.hpp).
#pragma once

#include <array>

#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"

namespace orrery {

struct Verner65 : TabulatedPair<Verner65, 8> {
  static constexpr const char* name = "verner65";
  static constexpr const char* description = "Verner 6(5), 8 stages (embedded 5th order)";
  static constexpr int order = 6;
  static constexpr int embedded_order = 5;
  static constexpr RkEntry kA[] = {
      {1, 0, fraction(1, 6)},
      {2, 0, fraction(4, 75)},
      {2, 1, fraction(16, 75)},
      {3, 0, fraction(5, 6)},
      {3, 1, fraction(-8, 3)},
      {3, 2, fraction(5, 2)},
      {4, 0, fraction(-165, 64)},
      {4, 1, fraction(55, 6)},
      {4, 2, fraction(-425, 64)},
      {4, 3, fraction(85, 96)},
      {5, 0, fraction(12, 5)},
      {5, 1, fraction(-8)},
      {5, 2, fraction(4015, 612)},
      {5, 3, fraction(-11, 36)},
      {5, 4, fraction(88, 255)},
      {6, 0, fraction(-8263, 15000)},
      {6, 1, fraction(124, 75)},
      {6, 2, fraction(-643, 680)},
      {6, 3, fraction(-81, 250)},
      {6, 4, fraction(2484, 10625)},
      {7, 0, fraction(3501, 1720)},
      {7, 1, fraction(-300, 43)},
      {7, 2, fraction(297275, 52632)},
      {7, 3, fraction(-319, 2322)},
      {7, 4, fraction(24068, 84065)},
      {7, 6, fraction(3850, 26703)}};
  static constexpr std::array<RkCoefficient, 8> kB{
      fraction(3, 40), fraction(0), fraction(875, 2244), fraction(23, 72), fraction(264, 1955),
      fraction(0), fraction(125, 11592), fraction(43, 616)};
  static constexpr std::array<RkCoefficient, 8> kBHat{
      fraction(13, 160), fraction(0), fraction(2375, 5984), fraction(5, 16), fraction(12, 85),
      fraction(3, 44), fraction(0), fraction(0)};
  static constexpr std::array<RkCoefficient, 8> kC{
      fraction(0), fraction(1, 6), fraction(4, 15), fraction(2, 3), fraction(5, 6), fraction(1),
      fraction(1, 15), fraction(1)};
};

}  // namespace orrery
