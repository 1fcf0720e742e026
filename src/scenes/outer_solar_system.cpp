// SPDX-License-Identifier: MIT
#include "orrery/scenes/outer_solar_system.hpp"

#include "orrery/scenes/centre_of_mass_frame.hpp"

namespace orrery {

namespace {

using P = OuterSolarSystemParams;
constexpr const char* kUnits = "au, day, msun (G = 2.95912208286e-4, as published)";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(real_field("softening", "Plummer softening length in au (0: the planets themselves)",
                         &P::softening, RealRule::NonNegative));
  return f;
}

}  // namespace

const std::vector<ParamField<OuterSolarSystemParams>>& outer_solar_system_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_outer_solar_system(const OuterSolarSystemParams& params) {
  check_scene_params(outer_solar_system_fields(), params);
  InitialConditions ic;
  ic.scene = "outer-solar-system";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin (the published data are heliocentric)";
  ic.g = 2.95912208286e-4;
  ic.softening = params.softening;
  // Jupiter's period is 4 333 days: 16 days is ~270 steps an orbit, ample for the fixed-step
  // methods (whfast takes ten times that step); 10⁶ days is 16 Neptune orbits.
  ic.dt = 16.0;
  ic.t_end = 1.0e6;
  ic.parameters = scene_parameter_values(outer_solar_system_fields(), params);

  Particles<double>& p = ic.particles;
  p.resize(6);
  // Sun, Jupiter, Saturn, Uranus, Neptune, Pluto (Hairer, Lubich & Wanner, Table 2.1).
  p.mass = {1.00000597682,      0.000954786104043,  0.000285583733151,
            0.0000437273164546, 0.0000517759138449, 1.0 / 1.3e8};
  p.x = {0.0, -3.5023653, 9.0755314, 8.3101420, 11.4707666, -15.5387357};
  p.y = {0.0, -3.8169847, -3.0458353, -16.2901086, -25.7294829, -25.2225594};
  p.z = {0.0, -1.5507963, -1.6483708, -7.2521278, -10.8169456, -3.1902382};
  p.vx = {0.0, 0.00565429, 0.00168318, 0.00354178, 0.00288930, 0.00276725};
  p.vy = {0.0, -0.00412490, 0.00483525, 0.00137102, 0.00114527, -0.00170702};
  p.vz = {0.0, -0.00190589, 0.00192462, 0.00055029, 0.00039677, -0.00136504};
  p.id = {0, 1, 2, 3, 4, 5};
  move_to_centre_of_mass_frame(p);
  return ic;
}

SceneEntry outer_solar_system_scene() {
  return make_scene_entry<P>(
      {"outer-solar-system",
       "the Sun (with the inner planets' mass), Jupiter, Saturn, Uranus, Neptune and Pluto at "
       "1994-09-05 0h GST",
       kUnits, "Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), Table I.2.1", {}},
      outer_solar_system_fields(), &make_outer_solar_system);
}

}  // namespace orrery
