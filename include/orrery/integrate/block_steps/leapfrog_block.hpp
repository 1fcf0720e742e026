// SPDX-License-Identifier: MIT
// Leapfrog kick–drift–kick with hierarchical block time steps (GADGET-2: V. Springel, MNRAS 364,
// 1105 (2005), §5; GOTHIC: Y. Miki & M. Umemura, New Astronomy 52, 65 (2017)): body i kicks with
// its own step h/2^k_i (integrate/block_steps/block_levels.hpp), every body drifts with the
// smallest step in use, and the forces are computed only for the bodies whose step ends.
// On one level it is the leapfrog of splitting/splitting_tables.hpp. The stepper:
// block_steps/array_stepper.hpp. It has no register stepper: an ensemble's small systems take one
// step for all bodies.
#pragma once

#include "orrery/integrate/integrator_family.hpp"

namespace orrery {

struct LeapfrogBlock {
  static constexpr const char* name = "leapfrog-block";
  static constexpr IntegratorFamily family = IntegratorFamily::block_steps;
  static constexpr const char* description =
      "leapfrog with power-of-two block steps per body, from its acceleration (GADGET-2)";
  static constexpr int order = 2;
  static constexpr bool register_stepper = false;
};

}  // namespace orrery
