// SPDX-License-Identifier: MIT
#include "orrery/scenes/kepler.hpp"

#include <cmath>
#include <numbers>

#include "orrery/scenes/bounded_real_field.hpp"
#include "orrery/scenes/dynamical_time.hpp"

namespace orrery {

namespace {

using P = KeplerParams;
constexpr const char* kUnits = "G = 1";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(bounded_real_field("eccentricity", "eccentricity e of the orbit", &P::eccentricity,
                                 {0.0, true}, {1.0, false}));
  f.push_back(
      real_field("semi-major-axis", "semi-major axis a", &P::semi_major_axis, RealRule::Positive));
  f.push_back(reals_field("masses", "masses m1,m2", &P::masses, RealRule::Positive));
  f.push_back(real_field("softening", "Plummer softening length (0: the Kepler problem itself)",
                         &P::softening, RealRule::NonNegative));
  return f;
}

}  // namespace

const std::vector<ParamField<KeplerParams>>& kepler_fields() {
  static const auto fields = make_fields();
  return fields;
}

double kepler_period(const KeplerParams& p) {
  const double a = p.semi_major_axis;
  return 2.0 * std::numbers::pi * std::sqrt(a * a * a / (p.masses[0] + p.masses[1]));
}

InitialConditions make_kepler(const KeplerParams& params) {
  check_scene_params(kepler_fields(), params);
  const double m1 = params.masses[0], m2 = params.masses[1], total = m1 + m2;
  const double e = params.eccentricity, a = params.semi_major_axis;
  const double r_p = a * (1.0 - e);
  const double v_p = std::sqrt(total * (1.0 + e) / r_p);

  InitialConditions ic;
  ic.scene = "kepler";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin; pericentre on +x, orbit in the xy plane";
  ic.g = 1.0;
  ic.softening = params.softening;
  ic.parameters = scene_parameter_values(kepler_fields(), params);
  // About 200 steps through the pericentre passage, whose time scale is T (1 − e)^(3/2) / 2π.
  const double period = kepler_period(params);
  ic.dt = power_of_two_floor(period * (1.0 - e) * std::sqrt(1.0 - e) / 200.0);
  ic.t_end = 10.0 * period;

  Particles<double>& p = ic.particles;
  p.resize(2);
  const double w1 = m2 / total, w2 = m1 / total;
  p.x = {-w1 * r_p, w2 * r_p};
  p.y = {0.0, 0.0};
  p.z = {0.0, 0.0};
  p.vx = {0.0, 0.0};
  p.vy = {-w1 * v_p, w2 * v_p};
  p.vz = {0.0, 0.0};
  p.mass = {m1, m2};
  p.id = {0, 1};
  return ic;
}

SceneEntry kepler_scene() {
  return make_scene_entry<P>({"kepler",
                              "two bodies on a Kepler ellipse of given eccentricity, from "
                              "pericentre",
                              kUnits,
                              "Murray & Dermott, Solar System Dynamics (1999), ch. 2",
                              {}},
                             kepler_fields(), &make_kepler);
}

}  // namespace orrery
