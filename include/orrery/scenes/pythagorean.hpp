// SPDX-License-Identifier: MIT
// Burrau's Pythagorean three-body problem (C. Burrau, Astron. Nachr. 195, 113, 1913; solved by
// V. Szebehely & C. F. Peters, AJ 72, 876, 1967): masses 3, 4, 5 at rest at the corners of a
// 3-4-5 right triangle, (1, 3), (−2, −1), (1, −1), G = 1; the mutual distances are 5, 4, 3 and
//   E = W = −(3·4/5 + 3·5/4 + 4·5/3) = −769/60.
// The centre of mass is already at rest at the origin. Close encounters (a 4–5 approach near
// t = 15.83) call for an adaptive integrator; the recommended fixed step 2⁻¹⁶ is only a start.
// The mass-3 body escapes; by t = 70 the others form a binary (a = 0.5524, e = 0.9887).
#pragma once

#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct PythagoreanParams {
  double softening = 0.0;
};

const std::vector<ParamField<PythagoreanParams>>& pythagorean_fields();
InitialConditions make_pythagorean(const PythagoreanParams& params);
SceneEntry pythagorean_scene();

}  // namespace orrery
