// SPDX-License-Identifier: MIT
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/scenes/nbody_units.hpp"
#include "orrery/scenes/two_galaxies.hpp"

namespace orrery {
namespace {

// Sums of ~10³ terms in double: relative rounding well below 10⁻¹².
constexpr double kRoundingTolerance = 1e-12;
// The disk stands 1 % of its radius thick and its stars' own angular momentum has a matching
// tilt: a degree covers it.
constexpr double kSpinAxisTolerance = 1.0 * std::numbers::pi / 180.0;

Particles<double> part(const Particles<double>& p, std::size_t begin, std::size_t end) {
  Particles<double> q;
  for (std::size_t i = begin; i < end; ++i) {
    q.x.push_back(p.x[i]);
    q.y.push_back(p.y[i]);
    q.z.push_back(p.z[i]);
    q.vx.push_back(p.vx[i]);
    q.vy.push_back(p.vy[i]);
    q.vz.push_back(p.vz[i]);
    q.mass.push_back(p.mass[i]);
    q.id.push_back(p.id[i]);
  }
  return q;
}

double angle(const Vec3d& a, const Vec3d& b) {
  const double c =
      (a.x * b.x + a.y * b.y + a.z * b.z) / (std::hypot(a.x, a.y, a.z) * std::hypot(b.x, b.y, b.z));
  return std::acos(std::min(1.0, c));
}

// Spin of a galaxy about its own centre of mass.
Vec3d spin(const Particles<double>& g) {
  const Diagnostics d = diagnostics_of(g, 0.0, 0.0);
  // L about the origin = spin + X × P.
  const Vec3d& x = d.com_position;
  const Vec3d& p = d.momentum;
  return d.angular_momentum -
         Vec3d{x.y * p.z - x.z * p.y, x.z * p.x - x.x * p.z, x.x * p.y - x.y * p.x};
}

TEST(SceneTwoGalaxies, TheCourseCase) {
  TwoGalaxiesParams params;
  params.n = 2001;
  const InitialConditions ic = make_two_galaxies(params);
  const auto& p = ic.particles;
  ASSERT_EQ(p.size(), 2001u);
  EXPECT_EQ(ic.g, 6.67384e-11);
  EXPECT_EQ(ic.softening, 1e19);  // H/100 with H = 10²¹ m
  EXPECT_EQ(ic.dt, 1e5 * 365.25 * 86400);
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p.id[i], i);

  const Diagnostics all = diagnostics_of(p, 0.0, 0.0);
  EXPECT_NEAR(all.mass, 4e42, kRoundingTolerance * 4e42);
  EXPECT_LE(std::hypot(all.com_position.x, all.com_position.y, all.com_position.z),
            kRoundingTolerance * 1e21);
  EXPECT_LE(std::hypot(all.momentum.x, all.momentum.y, all.momentum.z),
            kRoundingTolerance * all.momentum_scale);

  const auto first = part(p, 0, 1001), second = part(p, 1001, 2001);
  const Diagnostics g1 = diagnostics_of(first, 0.0, 0.0), g2 = diagnostics_of(second, 0.0, 0.0);
  EXPECT_NEAR(g1.mass, 2e42, kRoundingTolerance * 2e42);
  EXPECT_NEAR(g2.mass, 2e42, kRoundingTolerance * 2e42);
  // Approach at 350 km/s along x, centres 2·10²¹ m apart along x and 5·10²⁰ m across.
  const Vec3d dv = g1.com_velocity - g2.com_velocity;
  EXPECT_NEAR(dv.x, 3.5e5, kRoundingTolerance * 3.5e5);
  EXPECT_NEAR(std::hypot(dv.y, dv.z), 0.0, kRoundingTolerance * 3.5e5);
  const Vec3d dx = g2.com_position - g1.com_position;
  EXPECT_NEAR(dx.x, 2e21, kRoundingTolerance * 2e21);
  EXPECT_NEAR(dx.y, 5e20, kRoundingTolerance * 2e21);

  // Each galaxy 10²¹ m across: stars within 5·10²⁰ m of its centre (plus half the thickness
  // and the central body's small offset from the centre of mass), and reaching near the edge.
  for (const auto* g : {&first, &second}) {
    const Diagnostics d = diagnostics_of(*g, 0.0, 0.0);
    double r_max = 0.0;
    for (std::size_t i = 1; i < g->size(); ++i)
      r_max = std::max(r_max, std::hypot(g->x[i] - g->x[0], g->y[i] - g->y[0], g->z[i] - g->z[0]));
    EXPECT_LE(r_max, std::hypot(5e20, 2.5e18) * (1 + kRoundingTolerance));
    EXPECT_GT(r_max, 0.98 * 5e20);
    EXPECT_NEAR(g->mass[0], 0.5 * 2e42, kRoundingTolerance * 2e42);
    (void)d;
  }

  // Galaxy 1 spins along +z (prograde with the orbit, whose L is along +z); galaxy 2 is tilted
  // by 60° about the x axis.
  EXPECT_LT(angle(spin(first), {0, 0, 1}), kSpinAxisTolerance);
  EXPECT_LT(
      angle(spin(second), {0, -std::sin(std::numbers::pi / 3), std::cos(std::numbers::pi / 3)}),
      kSpinAxisTolerance);
}

TEST(SceneTwoGalaxies, TiltIsExactForQuadrants) {
  for (double tilt : {-135.0, 90.0, 180.0, 17.0}) {
    TwoGalaxiesParams params;
    params.n = 200;
    params.tilt = tilt;
    const InitialConditions ic = make_two_galaxies(params);
    const auto second = part(ic.particles, 100, 200);
    const double t = tilt * std::numbers::pi / 180.0;
    EXPECT_LT(angle(spin(second), {0, -std::sin(t), std::cos(t)}), kSpinAxisTolerance) << tilt;
  }
}

// The pull on one body is a sum of ~600 terms that cancel to a small fraction of the largest:
// their rounding, relative 10⁻¹⁶ each, may reach 10⁻¹² of the sum; 10⁻⁹ leaves room.
constexpr double kPullAgreement = 1e-9;

// N-body units are the SI scene rescaled, and the physics survives the rescaling: with G = 1 a
// body's acceleration G Σ m d / r³ in the new units is the SI one times T²/L.
TEST(SceneTwoGalaxies, NbodyUnitsAreTheSameCollision) {
  TwoGalaxiesParams params;
  params.n = 600;
  const InitialConditions si = make_two_galaxies(params);
  params.units = GalaxyUnits::nbody;
  const InitialConditions nb = make_two_galaxies(params);
  const NbodyUnits u = nbody_units(kCourseG, kCourseGalaxyDiameter, kCourseTotalMass);
  EXPECT_EQ(nb.g, 1.0);
  EXPECT_NEAR(nb.softening, 0.01, kRoundingTolerance);
  EXPECT_NEAR(nb.dt * u.time, si.dt, kRoundingTolerance * si.dt);
  ASSERT_EQ(nb.particles.size(), si.particles.size());
  const auto& a = si.particles;
  const auto& b = nb.particles;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(b.x[i] * u.length, a.x[i], kRoundingTolerance * 1e21);
    EXPECT_NEAR(b.vz[i] * u.velocity, a.vz[i], kRoundingTolerance * 1e6);
    EXPECT_NEAR(b.mass[i] * u.mass, a.mass[i], kRoundingTolerance * a.mass[i]);
  }
  // The pulls on body 5 of all the others, in both units.
  auto pull = [](const InitialConditions& ic, std::size_t i) {
    const auto& p = ic.particles;
    const double e2 = ic.softening * ic.softening;
    double ax = 0;
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (j == i) continue;
      const double dx = p.x[j] - p.x[i], dy = p.y[j] - p.y[i], dz = p.z[j] - p.z[i];
      const double r2 = dx * dx + dy * dy + dz * dz + e2;
      ax += ic.g * p.mass[j] * dx / (r2 * std::sqrt(r2));
    }
    return ax;
  };
  const double a_si = pull(si, 5), a_nb = pull(nb, 5);
  EXPECT_NEAR(a_nb, a_si * u.time * u.time / u.length, kPullAgreement * std::abs(a_nb));
  EXPECT_NE(nb.units.find("N-body"), std::string::npos);
}

// The galaxy a body is told to belong to (orrery render --color-by group) is the one it was
// made in: each body is nearer its own galaxy's centre, (-d/2, -b/2, 0) or (d/2, b/2, 0), than
// the other's.
TEST(SceneTwoGalaxies, EachBodyIsNamedForTheGalaxyItWasMadeIn) {
  for (std::int64_t n : {2000, 2001}) {
    TwoGalaxiesParams params;
    params.n = n;
    const InitialConditions ic = make_two_galaxies(params);
    const auto& p = ic.particles;
    const double d = params.separation / 2, b = params.impact_parameter / 2;
    int counts[2] = {0, 0};
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double to_first = std::hypot(p.x[i] + d, p.y[i] + b, p.z[i]);
      const double to_second = std::hypot(p.x[i] - d, p.y[i] - b, p.z[i]);
      const int galaxy = two_galaxies_galaxy_of(p.id[i], n);
      EXPECT_EQ(galaxy, to_first < to_second ? 0 : 1) << i;
      ++counts[galaxy];
    }
    EXPECT_EQ(counts[0], (n + 1) / 2);
    EXPECT_EQ(counts[1], n / 2);
  }
}

}  // namespace
}  // namespace orrery
