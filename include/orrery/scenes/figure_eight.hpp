// SPDX-License-Identifier: MIT
// The figure-eight choreography of three equal masses (A. Chenciner & R. Montgomery, Ann. Math.
// 152, 881, 2000), with C. Simó's initial data (G = m = 1):
//   x1 = −x2 = (0.97000436, −0.24308753),  x3 = 0,
//   v3 = (−0.93240737, −0.86473146),  v1 = v2 = −v3/2,   period T = 6.32591398;
// L = 0, E = −1.287142 (from the data's 8 digits). The centre of mass is at rest at the origin
// as given. The recommended step is T/4096, the end time one period.
#pragma once

#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

inline constexpr double kFigureEightPeriod = 6.32591398;

struct FigureEightParams {
  double softening = 0.0;
};

const std::vector<ParamField<FigureEightParams>>& figure_eight_fields();
InitialConditions make_figure_eight(const FigureEightParams& params);
SceneEntry figure_eight_scene();

}  // namespace orrery
