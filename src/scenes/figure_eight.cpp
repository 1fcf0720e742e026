// SPDX-License-Identifier: MIT
#include "orrery/scenes/figure_eight.hpp"

namespace orrery {

namespace {

using P = FigureEightParams;
constexpr const char* kUnits = "G = 1, m = 1";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(real_field("softening", "Plummer softening length (0: the choreography itself)",
                         &P::softening, RealRule::NonNegative));
  return f;
}

}  // namespace

const std::vector<ParamField<FigureEightParams>>& figure_eight_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_figure_eight(const FigureEightParams& params) {
  check_scene_params(figure_eight_fields(), params);
  InitialConditions ic;
  ic.scene = "figure-eight";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin (as published)";
  ic.g = 1.0;
  ic.softening = params.softening;
  ic.dt = kFigureEightPeriod / 4096.0;  // exact: a power of two; 4096 steps make one period
  ic.t_end = kFigureEightPeriod;
  ic.parameters = scene_parameter_values(figure_eight_fields(), params);

  // Written as published: halving v3 is exact, so v1 = v2 = −v3/2 to the bit.
  const double x1 = 0.97000436, y1 = -0.24308753;
  const double vx3 = -0.93240737, vy3 = -0.86473146;
  Particles<double>& p = ic.particles;
  p.resize(3);
  p.x = {x1, -x1, 0.0};
  p.y = {y1, -y1, 0.0};
  p.z = {0.0, 0.0, 0.0};
  p.vx = {-vx3 / 2.0, -vx3 / 2.0, vx3};
  p.vy = {-vy3 / 2.0, -vy3 / 2.0, vy3};
  p.vz = {0.0, 0.0, 0.0};
  p.mass = {1.0, 1.0, 1.0};
  p.id = {0, 1, 2};
  return ic;
}

SceneEntry figure_eight_scene() {
  return make_scene_entry<P>(
      {"figure-eight",
       "three equal masses chasing each other on a figure eight (period 6.32591398)",
       kUnits,
       "Chenciner & Montgomery, Ann. Math. 152, 881 (2000); initial data by C. Simo",
       {}},
      figure_eight_fields(), &make_figure_eight);
}

}  // namespace orrery
