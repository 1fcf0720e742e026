// SPDX-License-Identifier: MIT
// A body's level in a hierarchy of power-of-two time steps h/2^k (h the largest step), from the
// step its own acceleration asks for (V. Springel, "The cosmological simulation code GADGET-2",
// MNRAS 364, 1105 (2005), §5, eq. 34):
//
//   Δt_i = (2 η L / |a_i|)^{1/2},    k_i = the smallest k ≥ 0 with h/2^k ≤ Δt_i,
//
// L a length (the softening ε in GADGET; the length a user gives where ε = 0), η the accuracy
// parameter (GADGET's ErrTolIntAccuracy, whose customary 0.025 is the default). A body that asks
// for a step below h/2^max_level takes that one.
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

struct BlockStepOptions {
  double eta = 0.025;   // η
  // L: a system of unit size in N-body units, for a caller that names none (orrery sim gives the
  // run's softening or --block-length).
  double length = 1.0;
  int max_level = 30;  // the smallest step is h/2^max_level
};

// Levels are counted in ticks of h/2^max_level held in 64 bits.
inline constexpr int kBlockMaxLevelLimit = 40;

// ParameterError naming the option, its value and what is accepted.
inline void check_block_step_options(const BlockStepOptions& o) {
  if (!(std::isfinite(o.eta) && o.eta > 0))
    throw ParameterError("block-eta", fmt::format("{}", o.eta), "a number > 0");
  if (!(std::isfinite(o.length) && o.length > 0))
    throw ParameterError("block-length", fmt::format("{}", o.length),
                         "a length > 0 (the softening, or a length of the system where it is 0)");
  if (o.max_level < 0 || o.max_level > kBlockMaxLevelLimit)
    throw ParameterError("block-max-level", std::to_string(o.max_level),
                         fmt::format("an integer in [0, {}]", kBlockMaxLevelLimit));
}

// k_i for a body with |a_i| = accel_norm under the largest step h. A body without acceleration
// (or a non-finite one, which the run reports itself) takes h.
inline int block_level(double h, double accel_norm, const BlockStepOptions& o) {
  if (!(accel_norm > 0) || !std::isfinite(accel_norm)) return 0;
  const double wanted = std::sqrt(2 * o.eta * o.length / accel_norm);
  double step = std::abs(h);
  int k = 0;
  while (k < o.max_level && step > wanted) {
    step *= 0.5;
    ++k;
  }
  return k;
}

}  // namespace orrery
