// SPDX-License-Identifier: MIT
#include "orrery/scenes/disk.hpp"

#include <cmath>
#include <algorithm>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "orrery/scenes/bounded_real_field.hpp"
#include "orrery/scenes/centre_of_mass_frame.hpp"
#include "orrery/scenes/dynamical_time.hpp"

namespace orrery {

namespace {

using P = DiskParams;
constexpr const char* kUnits = "G = M = 1 (M the total mass)";

std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(integer_field("n", "number of stars (the central body comes on top)", &P::n, 1,
                            kMaxSceneParticles - 1));
  f.push_back(integer_field("seed", "seed of the random sample (std::mt19937_64)", &P::seed, 0,
                            std::numeric_limits<std::int64_t>::max()));
  f.push_back(bounded_real_field("central-fraction", "fraction of the mass in the central body",
                                 &P::central_fraction, {0.0, false}, {1.0, false}));
  f.push_back(real_field("inner-radius", "inner radius of the disk", &P::inner_radius,
                         RealRule::NonNegative));
  f.push_back(
      real_field("outer-radius", "outer radius of the disk", &P::outer_radius, RealRule::Positive));
  f.push_back(
      real_field("thickness", "full thickness of the disk", &P::thickness, RealRule::NonNegative));
  f.push_back(
      real_field("softening", "Plummer softening length", &P::softening, RealRule::NonNegative));
  return f;
}

}  // namespace

const std::vector<ParamField<DiskParams>>& disk_fields() {
  static const auto fields = make_fields();
  return fields;
}

DiskShape disk_shape(const DiskParams& p) {
  return {.stars = p.n,
          .mass = 1.0,
          .central_fraction = p.central_fraction,
          .inner_radius = p.inner_radius,
          .outer_radius = p.outer_radius,
          .thickness = p.thickness,
          .softening = p.softening,
          .g = 1.0};
}

double disk_circular_speed(const DiskShape& s, double radius) {
  const double r2 = radius * radius;
  const double in2 = s.inner_radius * s.inner_radius;
  const double out2 = s.outer_radius * s.outer_radius;
  const double enclosed =
      s.mass * (s.central_fraction + (1.0 - s.central_fraction) * (r2 - in2) / (out2 - in2));
  const double soft2 = r2 + s.softening * s.softening;
  return std::sqrt(s.g * enclosed * r2 / (soft2 * std::sqrt(soft2)));
}

Particles<double> disk_particles(const DiskShape& s, RandomStream& random) {
  const auto stars = static_cast<std::size_t>(s.stars);
  Particles<double> p;
  p.resize(stars + 1);
  p.x[0] = p.y[0] = p.z[0] = p.vx[0] = p.vy[0] = p.vz[0] = 0.0;
  p.mass[0] = s.central_fraction * s.mass;
  p.id[0] = 0;
  const double star_mass = (1.0 - s.central_fraction) * s.mass / static_cast<double>(stars);
  const double in2 = s.inner_radius * s.inner_radius;
  const double out2 = s.outer_radius * s.outer_radius;
  for (std::size_t i = 1; i <= stars; ++i) {
    // Uniform surface density: R² uniform between the radii squared.
    const double radius = std::sqrt(in2 + (out2 - in2) * random.uniform());
    const auto [c, sn] = random.unit_circle();
    const double height = s.thickness * (random.uniform() - 0.5);
    const double v = disk_circular_speed(s, radius);
    p.x[i] = radius * c;
    p.y[i] = radius * sn;
    p.z[i] = height;
    p.vx[i] = -v * sn;
    p.vy[i] = v * c;
    p.vz[i] = 0.0;
    p.mass[i] = star_mass;
    p.id[i] = i;
  }
  return p;
}

InitialConditions make_disk(const DiskParams& params) {
  check_scene_params(disk_fields(), params);
  if (!(params.inner_radius < params.outer_radius))
    throw ParameterError("inner-radius", fmt::format("{}", params.inner_radius),
                         fmt::format("a radius below outer-radius ({})", params.outer_radius));
  InitialConditions ic;
  ic.scene = "disk";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin; disk in the xy plane, spin along +z";
  ic.g = 1.0;
  ic.softening = params.softening;
  ic.parameters = scene_parameter_values(disk_fields(), params);

  const DiskShape shape = disk_shape(params);
  RandomStream random(params.seed);
  ic.particles = disk_particles(shape, random);
  move_to_centre_of_mass_frame(ic.particles);

  // The innermost orbit sets the step (about 100 per revolution), the outermost the end (4
  // revolutions). With inner-radius 0 the softening length stands in for it.
  const double r_in =
      std::max(params.inner_radius, std::max(params.softening, 1e-3 * params.outer_radius));
  const double period_in = 2.0 * std::numbers::pi * r_in / disk_circular_speed(shape, r_in);
  const double period_out = 2.0 * std::numbers::pi * params.outer_radius /
                            disk_circular_speed(shape, params.outer_radius);
  ic.dt = power_of_two_floor(period_in / 100.0);
  ic.t_end = 4.0 * period_out;
  return ic;
}

SceneEntry disk_scene() {
  return make_scene_entry<P>(
      {"disk",
       "a thin rotating disk of N stars on circular orbits around a central body",
       kUnits,
       "Toomre & Toomre, ApJ 178, 623 (1972) (test-star disks around a central mass)",
       {}},
      disk_fields(), &make_disk);
}

}  // namespace orrery
