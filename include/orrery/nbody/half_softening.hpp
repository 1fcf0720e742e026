// SPDX-License-Identifier: MIT
// ε_i²/2 per body, as every engine keeps it: from the bodies' own softening lengths, or the
// engine's global ε for all of them when they carry none. A pair then softens with
// ε_ij² = ε_i²/2 + ε_j²/2, the same bits as (ε_i² + ε_j²)/2 since halving is exact (Dehnen,
// MNRAS 324, 273, 2001, for the per-particle form).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "orrery/core/error.hpp"

namespace orrery {

// Throws InputError naming `engine` when `softening` is neither empty nor one per body.
template <class Real>
std::vector<Real> half_softening_squared(std::span<const Real> softening, std::size_t bodies,
                                         double global, const std::string& engine) {
  if (!softening.empty() && softening.size() != bodies)
    throw InputError(engine + " engine: " + std::to_string(softening.size()) +
                     " softening lengths for " + std::to_string(bodies) + " bodies");
  std::vector<Real> half(bodies);
  const Real g = static_cast<Real>(global);
  for (std::size_t i = 0; i < bodies; ++i) {
    const Real eps = softening.empty() ? g : softening[i];
    half[i] = eps * eps * Real(0.5);
  }
  return half;
}

}  // namespace orrery
