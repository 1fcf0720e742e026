// SPDX-License-Identifier: MIT
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/kepler.hpp"

namespace orrery {
namespace {

// Energy and eccentricity come from the state through a few dozen roundings, each relative
// 1.1·10⁻¹⁶ of quantities of order 1/(1 − e) at most (e ≤ 0.99 here).
constexpr double kStateTolerance = 1e-12;

struct Orbit {
  double energy, eccentricity, pericentre;
};

// The orbit of the relative motion r = x2 − x1, v = v2 − v1 with μ = G(m1 + m2):
// e = v × h / μ − r/|r| with h = r × v (the Laplace–Runge–Lenz vector over μ).
Orbit orbit_of(const Particles<double>& p, double potential) {
  const Vec3d r{p.x[1] - p.x[0], p.y[1] - p.y[0], p.z[1] - p.z[0]};
  const Vec3d v{p.vx[1] - p.vx[0], p.vy[1] - p.vy[0], p.vz[1] - p.vz[0]};
  const double mu = p.mass[0] + p.mass[1];
  const Vec3d h{r.y * v.z - r.z * v.y, r.z * v.x - r.x * v.z, r.x * v.y - r.y * v.x};
  const double rn = std::hypot(r.x, r.y, r.z);
  const Vec3d e{(v.y * h.z - v.z * h.y) / mu - r.x / rn, (v.z * h.x - v.x * h.z) / mu - r.y / rn,
                (v.x * h.y - v.y * h.x) / mu - r.z / rn};
  return {diagnostics_of(p, potential, 0.0).energy_total, std::hypot(e.x, e.y, e.z), rn};
}

TEST(SceneKepler, EnergyAndEccentricityFromTheState) {
  auto engine = make_force_engine<double>("direct", EngineOptions{.g = 1.0, .softening = 0.0, .threads = 1});
  for (double e : {0.0, 0.3, 0.5, 0.9, 0.99}) {
    KeplerParams params;
    params.eccentricity = e;
    params.semi_major_axis = 2.5;
    params.masses = {3.0, 0.25};
    const InitialConditions ic = make_kepler(params);
    const auto& p = ic.particles;
    const Orbit o = orbit_of(p, potential_energy(p, *engine));
    const double expected_energy = -3.0 * 0.25 / (2.0 * 2.5);
    EXPECT_NEAR(o.energy, expected_energy, kStateTolerance * std::abs(expected_energy)) << e;
    EXPECT_NEAR(o.eccentricity, e, kStateTolerance) << e;
    EXPECT_NEAR(o.pericentre, 2.5 * (1.0 - e), kStateTolerance) << e;
    const Diagnostics d = diagnostics_of(p, 0.0, 0.0);
    EXPECT_NEAR(d.momentum.y, 0.0, kStateTolerance * d.momentum_scale);
    EXPECT_NEAR(d.com_position.x, 0.0, kStateTolerance);
    EXPECT_GT(ic.dt, 0.0);
    EXPECT_NEAR(ic.t_end, 10.0 * 2.0 * std::numbers::pi * std::sqrt(2.5 * 2.5 * 2.5 / 3.25), 1e-12);
  }
}

TEST(SceneKepler, DefaultsAreAStarAndAPlanet) {
  const InitialConditions ic = make_kepler({});
  EXPECT_EQ(ic.particles.mass, (std::vector<double>{1.0, 1e-3}));
  EXPECT_EQ(ic.g, 1.0);
  EXPECT_EQ(ic.softening, 0.0);
  EXPECT_NEAR(orbit_of(ic.particles, -1e-3 / 0.5).eccentricity, 0.5, kStateTolerance);
}

}  // namespace
}  // namespace orrery
