// SPDX-License-Identifier: MIT
#include "orrery/scenes/pythagorean.hpp"

namespace orrery {

namespace {

using P = PythagoreanParams;
constexpr const char* kUnits = "G = 1";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(real_field("softening", "Plummer softening length (0: the problem itself)",
                         &P::softening, RealRule::NonNegative));
  return f;
}

}  // namespace

const std::vector<ParamField<PythagoreanParams>>& pythagorean_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_pythagorean(const PythagoreanParams& params) {
  check_scene_params(pythagorean_fields(), params);
  InitialConditions ic;
  ic.scene = "pythagorean";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin (as published)";
  ic.g = 1.0;
  ic.softening = params.softening;
  ic.dt = 0x1.0p-16;
  ic.t_end = 70.0;
  ic.parameters = scene_parameter_values(pythagorean_fields(), params);

  Particles<double>& p = ic.particles;
  p.resize(3);
  p.x = {1.0, -2.0, 1.0};
  p.y = {3.0, -1.0, -1.0};
  p.z = {0.0, 0.0, 0.0};
  p.vx = {0.0, 0.0, 0.0};
  p.vy = {0.0, 0.0, 0.0};
  p.vz = {0.0, 0.0, 0.0};
  p.mass = {3.0, 4.0, 5.0};
  p.id = {0, 1, 2};
  return ic;
}

SceneEntry pythagorean_scene() {
  return make_scene_entry<P>(
      {"pythagorean",
       "Burrau's problem: masses 3, 4, 5 at rest on a 3-4-5 triangle (E = -769/60)",
       kUnits,
       "Burrau, Astron. Nachr. 195, 113 (1913); Szebehely & Peters, AJ 72, 876 (1967)",
       {}},
      pythagorean_fields(), &make_pythagorean);
}

}  // namespace orrery
