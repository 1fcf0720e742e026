// SPDX-License-Identifier: MIT
// The potential energy from per-particle potentials, W = ½ Σ_i m_i φ_i (φ_i already holds −G),
// summed with compensation in double (or wider, for float128 particles) so the sum's rounding is
// far below the approximation of the engine that gave φ. Approximate engines (trees) use it for
// ForceEngine::potential_energy.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "orrery/core/compensated_sum.hpp"

namespace orrery {

template <class Real>
double potential_energy_from_potentials(std::span<const Real> mass, std::span<const Real> phi) {
  using A = std::conditional_t<(sizeof(Real) > sizeof(double)), Real, double>;
  CompensatedSum<A> sum;
  for (std::size_t i = 0; i < mass.size(); ++i)
    sum.add(static_cast<A>(mass[i]) * static_cast<A>(phi[i]));
  return static_cast<double>(sum.value() / A(2));
}

}  // namespace orrery
