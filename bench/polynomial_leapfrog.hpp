// SPDX-License-Identifier: MIT
// Leapfrog steps of Hénon–Heiles on the GPU with the built-in gradient and with the user's
// polynomial (physics/polynomial.hpp), in one kernel shape: the cost of the polynomial
// evaluator against the hand-written formulas.
#pragma once

#include "orrery/physics/polynomial.hpp"

namespace orrery::bench {

inline constexpr unsigned kEvenInX = parity_word(VariableParity::even);

struct LeapfrogRun {
  double seconds = 0;        // the best of three launches
  double largest_y_gap = 0;  // final y against the first run of the same starts
};

// `trajectories` starts on the line x = 0, px from the energy 1/8, each advanced `steps` steps
// of `dt`; `reference` (trajectories doubles) receives final y on the first call and is
// compared with on later ones.
LeapfrogRun leapfrog_builtin(int trajectories, int steps, double dt, double* reference);
LeapfrogRun leapfrog_polynomial(const PolynomialPotential<double, 2, 3, 0>& v, int trajectories,
                                int steps, double dt, double* reference);
LeapfrogRun leapfrog_polynomial(const PolynomialPotential<double, 2, 3, kEvenInX>& v,
                                int trajectories, int steps, double dt, double* reference);

}  // namespace orrery::bench
