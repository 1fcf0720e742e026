// SPDX-License-Identifier: MIT
#include "orrery/scenes/two_galaxies.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "orrery/scenes/centre_of_mass_frame.hpp"
#include "orrery/scenes/bounded_real_field.hpp"
#include "orrery/scenes/disk.hpp"
#include "orrery/scenes/nbody_units.hpp"
#include "orrery/scenes/random_stream.hpp"

namespace orrery {

namespace {

using P = TwoGalaxiesParams;
constexpr const char* kUnits = "SI: m, kg, s; G = 6.67384e-11";


std::vector<ParamField<P>> make_fields() {
  std::vector<ParamField<P>> f;
  f.push_back(integer_field("n", "particles in all, both central bodies included", &P::n, 4,
                            kMaxSceneParticles));
  f.push_back(integer_field("seed", "seed of the random sample (std::mt19937_64)", &P::seed, 0,
                            std::numeric_limits<std::int64_t>::max()));
  f.push_back(bounded_real_field("central-fraction",
                                 "fraction of each galaxy's mass in its central body",
                                 &P::central_fraction, {0.0, false}, {1.0, false}));
  f.push_back(real_field("separation", "distance between the galaxies' centres, m", &P::separation,
                         RealRule::Positive));
  f.push_back(real_field("impact-parameter", "offset across the line of approach, m",
                         &P::impact_parameter, RealRule::NonNegative));
  f.push_back(real_field("approach-speed", "relative speed of the galaxies, m/s",
                         &P::approach_speed, RealRule::NonNegative));
  f.push_back(bounded_real_field("tilt", "inclination of galaxy 2's disk to galaxy 1's, degrees",
                                 &P::tilt, {-180.0, true}, {180.0, true}));
  f.push_back(
      real_field("softening", "Plummer softening length, m", &P::softening, RealRule::NonNegative));
  f.push_back(choice_field("units",
                           "units of the particles and times: si, or nbody (G = 1, length "
                           "1e21 m, mass 4e42 kg: fits fp32)",
                           &P::units, {"si", "nbody"}));
  return f;
}

// cos and sin of an angle in degrees with correctly rounded arithmetic only (std::sin's
// rounding is the library's): reduction to |x| ≤ 45° by quadrant, then Taylor series whose
// first omitted terms are below 10⁻¹⁸.
std::array<double, 2> cos_sin_degrees(double degrees) {
  const double quadrant = std::nearbyint(degrees / 90.0);
  const double x = (degrees - 90.0 * quadrant) * (std::numbers::pi / 180.0);
  const double x2 = x * x;
  double c = 1.0, s = 1.0;
  for (int k = 18; k >= 2; k -= 2) c = 1.0 - x2 / (k * (k - 1)) * c;
  for (int k = 19; k >= 3; k -= 2) s = 1.0 - x2 / (k * (k - 1)) * s;
  s *= x;
  switch ((static_cast<long long>(quadrant) % 4 + 4) % 4) {
    case 0:
      return {c, s};
    case 1:
      return {-s, c};
    case 2:
      return {-c, -s};
    default:
      return {s, -c};
  }
}

void append(Particles<double>& all, const Particles<double>& galaxy, const Vec3d& centre,
            const Vec3d& velocity, double cos_tilt, double sin_tilt) {
  for (std::size_t i = 0; i < galaxy.size(); ++i) {
    // Rotation about the x axis by the tilt, then the galaxy's place and motion.
    const double y = cos_tilt * galaxy.y[i] - sin_tilt * galaxy.z[i];
    const double z = sin_tilt * galaxy.y[i] + cos_tilt * galaxy.z[i];
    const double vy = cos_tilt * galaxy.vy[i] - sin_tilt * galaxy.vz[i];
    const double vz = sin_tilt * galaxy.vy[i] + cos_tilt * galaxy.vz[i];
    all.x.push_back(centre.x + galaxy.x[i]);
    all.y.push_back(centre.y + y);
    all.z.push_back(centre.z + z);
    all.vx.push_back(velocity.x + galaxy.vx[i]);
    all.vy.push_back(velocity.y + vy);
    all.vz.push_back(velocity.z + vz);
    all.mass.push_back(galaxy.mass[i]);
    all.id.push_back(all.id.size());
  }
}

}  // namespace

const std::vector<ParamField<TwoGalaxiesParams>>& two_galaxies_fields() {
  static const auto fields = make_fields();
  return fields;
}

InitialConditions make_two_galaxies(const TwoGalaxiesParams& params) {
  check_scene_params(two_galaxies_fields(), params);
  InitialConditions ic;
  ic.scene = "two-galaxies";
  ic.units = kUnits;
  ic.frame = "centre of mass at rest at the origin; galaxy 1 in the xy plane, approach along x";
  ic.g = kCourseG;
  ic.softening = params.softening;
  ic.dt = 1e5 * kJulianYear;
  ic.t_end = 1e9 * kJulianYear;
  ic.parameters = scene_parameter_values(two_galaxies_fields(), params);

  const double radius = kCourseGalaxyDiameter / 2.0;
  DiskShape shape;
  shape.mass = kCourseTotalMass / 2.0;
  shape.central_fraction = params.central_fraction;
  shape.inner_radius = radius / 10.0;
  shape.outer_radius = radius;
  shape.thickness = radius / 100.0;
  shape.softening = params.softening;
  shape.g = kCourseG;

  // One stream for both galaxies, galaxy 1 drawn first. Each galaxy is first put at rest at
  // its own centre of mass, so that the galaxies as wholes are where the geometry says and
  // approach at exactly the given speed (the random phases of the stars' orbits leave a net
  // momentum of order 1/√N otherwise).
  RandomStream random(params.seed);
  shape.stars = (params.n + 1) / 2 - 1;
  Particles<double> first = disk_particles(shape, random);
  move_to_centre_of_mass_frame(first);
  shape.stars = params.n / 2 - 1;
  Particles<double> second = disk_particles(shape, random);
  move_to_centre_of_mass_frame(second);

  const double d = params.separation / 2.0, b = params.impact_parameter / 2.0;
  const double u = params.approach_speed / 2.0;
  const auto [cos_tilt, sin_tilt] = cos_sin_degrees(params.tilt);
  append(ic.particles, first, {-d, -b, 0.0}, {u, 0.0, 0.0}, 1.0, 0.0);
  append(ic.particles, second, {d, b, 0.0}, {-u, 0.0, 0.0}, cos_tilt, sin_tilt);
  move_to_centre_of_mass_frame(ic.particles);
  if (params.units == GalaxyUnits::nbody) {
    const NbodyUnits u = nbody_units(kCourseG, kCourseGalaxyDiameter, kCourseTotalMass);
    to_nbody_units(ic, u,
                   fmt::format("N-body: G = 1, length {:g} m, mass {:g} kg, time {:.6g} s "
                               "({:.6g} Julian years)",
                               u.length, u.mass, u.time, u.time / kJulianYear));
  }
  return ic;
}

SceneEntry two_galaxies_scene() {
  return make_scene_entry<P>(
      {"two-galaxies",
       "two rotating disk galaxies on a collision course (the CUDA course case)",
       kUnits,
       "CUDA course galaxy collision (BACKGROUND.md); disks after Toomre & Toomre, ApJ 178, 623 "
       "(1972)",
       {}},
      two_galaxies_fields(), &make_two_galaxies);
}

}  // namespace orrery
