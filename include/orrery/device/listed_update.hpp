// SPDX-License-Identifier: MIT
// The one-term fused update of ArrayDevice::combine, y ← fma(h, c·k, y) (k itself for c = 1),
// applied to the listed bodies of a 3N array only: the arithmetic of every device's
// combine_listed, written once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "orrery/core/hd_math.hpp"

namespace orrery {

template <class Real>
void update_listed(Real* y, const Real* k, std::size_t n, Real h, double c,
                   std::span<const std::uint32_t> targets) {
  if (c == 0.0) return;
  const Real cr = static_cast<Real>(c);
  for (std::size_t component = 0; component < 3; ++component) {
    Real* yc = y + component * n;
    const Real* kc = k + component * n;
    for (const std::uint32_t i : targets) {
      const Real s = c == 1.0 ? kc[i] : cr * kc[i];
      yc[i] = mul_add(h, s, yc[i]);
    }
  }
}

}  // namespace orrery
