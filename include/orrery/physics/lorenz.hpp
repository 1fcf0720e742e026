// SPDX-License-Identifier: MIT
// The Lorenz system (E. N. Lorenz, J. Atmos. Sci. 20, 130 (1963)):
//
//   x' = σ (y − x),   y' = x (ρ − z) − y,   z' = x y − β z
//
// first order and dissipative (no invariant); chaotic at the classic σ = 10, ρ = 28, β = 8/3. The
// GPU ensemble solvers' benchmark (Utkarsh et al., "Automated translation and accelerated solving
// of differential equation on multiple GPU platforms", CMAME 419 (2024) 116591) sweeps
// ρ ∈ [0, 21] over the trajectories from u0 = (1, 0, 0). Six operations, for any lane type.
#pragma once

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class T>
struct LorenzParameters {
  T sigma, rho, beta;
};

template <class T>
ORRERY_HD void lorenz_derivative(const LorenzParameters<T>& p, const T (&u)[3], T (&dudt)[3]) {
  const T x = u[0], y = u[1], z = u[2];
  dudt[0] = p.sigma * (y - x);
  dudt[1] = mul_add(x, p.rho - z, -y);
  dudt[2] = mul_add(x, y, -(p.beta * z));
}

}  // namespace orrery
