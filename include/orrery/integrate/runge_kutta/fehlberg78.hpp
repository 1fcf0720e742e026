// SPDX-License-Identifier: MIT
// Runge–Kutta–Fehlberg 7(8) (E. Fehlberg, "Classical fifth-, sixth-, seventh-, and eighth-order
// Runge–Kutta formulas with stepsize control", NASA TR R-287, 1968, Table X): 13 stages, the
// 7th-order solution advanced as Fehlberg designed it, the 8th the estimate; their difference is
// 41/840 (k_1 + k_11 − k_12 − k_13), which vanishes when f depends on t alone. Exact fractions
// as published.
// The tables list a's nonzero entries (stage indices from 0) and every weight and node; each
// coefficient is rounded once to the run's precision (runge_kutta/coefficient.hpp).
#pragma once

#include <array>

#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"

namespace orrery {

struct Fehlberg78 : TabulatedPair<Fehlberg78, 13> {
  static constexpr const char* name = "fehlberg78";
  static constexpr const char* description =
      "Runge–Kutta–Fehlberg 7(8), 13 stages (embedded 8th order)";
  static constexpr int order = 7;
  static constexpr int embedded_order = 8;
  static constexpr RkEntry kA[] = {
      {1, 0, fraction(2, 27)},
      {2, 0, fraction(1, 36)},
      {2, 1, fraction(1, 12)},
      {3, 0, fraction(1, 24)},
      {3, 2, fraction(1, 8)},
      {4, 0, fraction(5, 12)},
      {4, 2, fraction(-25, 16)},
      {4, 3, fraction(25, 16)},
      {5, 0, fraction(1, 20)},
      {5, 3, fraction(1, 4)},
      {5, 4, fraction(1, 5)},
      {6, 0, fraction(-25, 108)},
      {6, 3, fraction(125, 108)},
      {6, 4, fraction(-65, 27)},
      {6, 5, fraction(125, 54)},
      {7, 0, fraction(31, 300)},
      {7, 4, fraction(61, 225)},
      {7, 5, fraction(-2, 9)},
      {7, 6, fraction(13, 900)},
      {8, 0, fraction(2)},
      {8, 3, fraction(-53, 6)},
      {8, 4, fraction(704, 45)},
      {8, 5, fraction(-107, 9)},
      {8, 6, fraction(67, 90)},
      {8, 7, fraction(3)},
      {9, 0, fraction(-91, 108)},
      {9, 3, fraction(23, 108)},
      {9, 4, fraction(-976, 135)},
      {9, 5, fraction(311, 54)},
      {9, 6, fraction(-19, 60)},
      {9, 7, fraction(17, 6)},
      {9, 8, fraction(-1, 12)},
      {10, 0, fraction(2383, 4100)},
      {10, 3, fraction(-341, 164)},
      {10, 4, fraction(4496, 1025)},
      {10, 5, fraction(-301, 82)},
      {10, 6, fraction(2133, 4100)},
      {10, 7, fraction(45, 82)},
      {10, 8, fraction(45, 164)},
      {10, 9, fraction(18, 41)},
      {11, 0, fraction(3, 205)},
      {11, 5, fraction(-6, 41)},
      {11, 6, fraction(-3, 205)},
      {11, 7, fraction(-3, 41)},
      {11, 8, fraction(3, 41)},
      {11, 9, fraction(6, 41)},
      {12, 0, fraction(-1777, 4100)},
      {12, 3, fraction(-341, 164)},
      {12, 4, fraction(4496, 1025)},
      {12, 5, fraction(-289, 82)},
      {12, 6, fraction(2193, 4100)},
      {12, 7, fraction(51, 82)},
      {12, 8, fraction(33, 164)},
      {12, 9, fraction(12, 41)},
      {12, 11, fraction(1)}};
  static constexpr std::array<RkCoefficient, 13> kB{
      fraction(41, 840), fraction(0), fraction(0), fraction(0), fraction(0), fraction(34, 105),
      fraction(9, 35), fraction(9, 35), fraction(9, 280), fraction(9, 280), fraction(41, 840),
      fraction(0), fraction(0)};
  static constexpr std::array<RkCoefficient, 13> kBHat{
      fraction(0), fraction(0), fraction(0), fraction(0), fraction(0), fraction(34, 105),
      fraction(9, 35), fraction(9, 35), fraction(9, 280), fraction(9, 280), fraction(0),
      fraction(41, 840), fraction(41, 840)};
  static constexpr std::array<RkCoefficient, 13> kC{
      fraction(0), fraction(2, 27), fraction(1, 9), fraction(1, 6), fraction(5, 12),
      fraction(1, 2), fraction(5, 6), fraction(1, 6), fraction(2, 3), fraction(1, 3), fraction(1),
      fraction(0), fraction(1)};
};

}  // namespace orrery
