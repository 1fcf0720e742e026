// SPDX-License-Identifier: MIT
// Tsitouras' 5(4) pair (Ch. Tsitouras, "Runge–Kutta pairs of order 5(4) satisfying only the first
// column simplifying assumption", Computers & Mathematics with Applications 62, 770, 2011): 7
// stages, the 5th-order solution advanced, the 4th the estimate. Like dopri5 the last stage is f at
// the new point (its row of a is b: first same as last for a controlled step); unlike dopri5,
// whose stages 3–6 satisfy the row simplifying assumption Σ_j a_ij c_j = c_i²/2, none of these
// does (the paper's title): the order conditions are solved without it, and the freedom goes into
// the leading error terms. The default method of the GPU ensemble solvers orrery is compared with.
//
// The coefficients that are exact decimals or fractions (c_2 = a_21, c_3, c_4, a_72, b̂_7 = 1/66)
// are given exactly; the others, printed in the paper to 16 digits, to 40 here (each rounds to the
// paper's double), so that a float128 run has the method itself. The tests check the order
// conditions, not the digits (embedded_pairs_test.cpp).
#pragma once

#include <array>

#include "orrery/integrate/runge_kutta/embedded_pairs.hpp"

namespace orrery {

struct Tsitouras5 : TabulatedPair<Tsitouras5, 7> {
  static constexpr const char* name = "tsit5";
  static constexpr const char* description = "Tsitouras 5(4), 7 stages (embedded 4th order)";
  static constexpr int order = 5;
  static constexpr int embedded_order = 4;
  static constexpr std::array<RkCoefficient, 21> kA{
      fraction(161, 1000),
      ORRERY_DECIMAL(-0.008480655492356988544426874250230774675121),
      ORRERY_DECIMAL(0.3354806554923569885444268742502307746751),
      ORRERY_DECIMAL(2.897153057105493432130432594192938764925),
      ORRERY_DECIMAL(-6.359448489975074843148159912383825625953),
      ORRERY_DECIMAL(4.362295432869581411017727318190886861028),
      ORRERY_DECIMAL(5.325864828439256604428877920840511317836),
      ORRERY_DECIMAL(-11.74888356406282787774717033978577296189),
      ORRERY_DECIMAL(7.495539342889836208304604784564358155659),
      ORRERY_DECIMAL(-0.0924950663617552492565020793320719161135),
      ORRERY_DECIMAL(5.861455442946420028659251486982647890394),
      ORRERY_DECIMAL(-12.92096931784710929170611868178335939542),
      ORRERY_DECIMAL(8.159367898576158643180400794539253485182),
      ORRERY_DECIMAL(-0.07158497328140099722453054252582973869127),
      ORRERY_DECIMAL(-0.02826905039406838290900305721271224146718),
      ORRERY_DECIMAL(0.09646076681806522951816731316512876333712),
      fraction(1, 100),
      ORRERY_DECIMAL(0.479889650414499574775249532290596519913),
      ORRERY_DECIMAL(1.379008574103741893192274821856872770756),
      ORRERY_DECIMAL(-3.290069515436080679901047585711363850116),
      ORRERY_DECIMAL(2.324710524099773982415355918398765796109)};
  static constexpr std::array<RkCoefficient, 7> kB{
      kA[15], kA[16], kA[17], kA[18], kA[19], kA[20], fraction(0)};
  static constexpr std::array<RkCoefficient, 7> kBHat{
      ORRERY_DECIMAL(0.09468075576583945807478876255758922856118),
      ORRERY_DECIMAL(0.009183565540343253096776363936645313759814),
      ORRERY_DECIMAL(0.4877705284247615707855642599631228241517),
      ORRERY_DECIMAL(1.234297566930478985655109673884237654036),
      ORRERY_DECIMAL(-2.70771234998352545488110997505932167069),
      ORRERY_DECIMAL(1.866628418170587035753719399566211498666),
      fraction(1, 66)};
  static constexpr std::array<RkCoefficient, 7> kC{
      fraction(0),
      fraction(161, 1000),
      fraction(327, 1000),
      fraction(9, 10),
      ORRERY_DECIMAL(0.9800255409045096857298102862870245954942),
      fraction(1),
      fraction(1)};
};

}  // namespace orrery
