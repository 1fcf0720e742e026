// SPDX-License-Identifier: MIT
#include "orrery/scenes/plummer.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "orrery/scenes/bounded_real_field.hpp"
#include "orrery/scenes/centre_of_mass_frame.hpp"
#include "orrery/scenes/random_stream.hpp"

namespace orrery {

namespace {

using P = PlummerParams;
constexpr const char* kUnits = "Henon: G = M = 1, E = -1/4";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(integer_field("n", "number of stars", &P::n, 2, kMaxSceneParticles));
  f.push_back(integer_field("seed", "seed of the random sample (std::mt19937_64)", &P::seed, 0,
                            std::numeric_limits<std::int64_t>::max()));
  f.push_back(bounded_real_field("mass-cut", "fraction of the mass sampled (innermost first)",
                                 &P::mass_cut, {0.0, false}, {1.0, true}));
  f.push_back(
      real_field("softening", "Plummer softening length", &P::softening, RealRule::NonNegative));
  return f;
}

// X^(1/3) for X > 0 with exact scaling by powers of two and Newton's iteration in correctly
// rounded arithmetic: the same bits everywhere, unlike std::cbrt, whose rounding is the
// library's. The mantissa is brought to [0.5, 4) so that 8 iterations from 1 converge.
double cube_root(double x) {
  int exponent = 0;
  double m = std::frexp(x, &exponent);
  const int r = ((exponent % 3) + 3) % 3;
  m = std::ldexp(m, r);
  exponent -= r;
  double y = 1.0;
  for (int i = 0; i < 8; ++i) y -= (y * y * y - m) / (3.0 * y * y);
  return std::ldexp(y, exponent / 3);
}

}  // namespace

double plummer_scale_radius_henon() { return 3.0 * std::numbers::pi / 16.0; }

const std::vector<ParamField<PlummerParams>>& plummer_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_plummer(const PlummerParams& params) {
  check_scene_params(plummer_fields(), params);
  const auto n = static_cast<std::size_t>(params.n);
  InitialConditions ic;
  ic.scene = "plummer";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin";
  ic.g = 1.0;
  ic.softening = params.softening;
  ic.dt = 0x1.0p-8;  // a few hundred steps per crossing time 2√2
  ic.t_end = 10.0;
  ic.parameters = scene_parameter_values(plummer_fields(), params);

  Particles<double>& p = ic.particles;
  p.resize(n);
  RandomStream random(params.seed);
  // AHW sample with a = 1 and G = M = 1, then scale lengths by a = 3π/16 and speeds by 1/√a.
  const double a = plummer_scale_radius_henon();
  const double speed_scale = 1.0 / std::sqrt(a);
  for (std::size_t i = 0; i < n; ++i) {
    // r = (X^(−2/3) − 1)^(−1/2) = c / √(1 − c²) with c = X^(1/3). A draw with c rounding to 1
    // (X within 10⁻¹⁶ of 1) would put the star at infinity; draw again.
    double c = 1.0;
    while (c >= 1.0) c = cube_root(params.mass_cut * random.uniform_open());
    const double r = c / std::sqrt((1.0 - c) * (1.0 + c));
    const Vec3d e = random.unit_vector();

    double q = 0.0;
    while (true) {
      q = random.uniform();
      const double s = 1.0 - q * q;
      const double g = q * q * s * s * s * std::sqrt(s);  // q² (1 − q²)^(7/2), at most 0.092
      if (0.1 * random.uniform() < g) break;
    }
    const double v = q * std::sqrt(2.0) / std::sqrt(std::sqrt(1.0 + r * r));
    const Vec3d w = random.unit_vector();

    p.x[i] = a * r * e.x;
    p.y[i] = a * r * e.y;
    p.z[i] = a * r * e.z;
    p.vx[i] = speed_scale * v * w.x;
    p.vy[i] = speed_scale * v * w.y;
    p.vz[i] = speed_scale * v * w.z;
    p.mass[i] = 1.0 / static_cast<double>(n);
    p.id[i] = i;
  }
  move_to_centre_of_mass_frame(p);
  return ic;
}

SceneEntry plummer_scene() {
  return make_scene_entry<P>({"plummer",
                              "a Plummer star cluster of N equal masses in virial equilibrium",
                              kUnits,
                              "Aarseth, Henon & Wielen, A&A 37, 183 (1974)",
                              {}},
                             plummer_fields(), &make_plummer);
}

}  // namespace orrery
