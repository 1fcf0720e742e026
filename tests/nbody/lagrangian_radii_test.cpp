// SPDX-License-Identifier: MIT
// Lagrangian radii: exact on shells of known radius, and the Plummer sphere's analytic
// r_f = a / sqrt(f^(-2/3) - 1) within the sampling error of the scene's bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "orrery/nbody/lagrangian_radii.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace orrery {
namespace {

// The f-quantile of N sampled radii scatters by about sqrt(f(1-f)/N) / (dF/dr) r: a few tenths of
// a percent at N = 20000; three times that at f = 0.1.
constexpr double kSampleTolerance = 0.03;

TEST(LagrangianRadii, AreTheRadiiOfShellsHoldingTheMassFraction) {
  // Ten pairs of equal bodies at radii 1..10 on opposite sides: the centre of mass at the origin.
  Particles<double> p;
  p.resize(20);
  for (int k = 0; k < 10; ++k) {
    p.x[2 * k] = k + 1.0, p.x[2 * k + 1] = -(k + 1.0);
    p.mass[2 * k] = p.mass[2 * k + 1] = 1.0;
    p.id[2 * k] = 2 * k, p.id[2 * k + 1] = 2 * k + 1;
  }
  // Shifted: radii are about the centre of mass, not the origin.
  for (double& y : p.y) y += 7.0;
  const double f[4] = {0.1, 0.5, 0.9, 1.0};
  EXPECT_EQ(lagrangian_radii(p, f), (std::vector<double>{1.0, 5.0, 9.0, 10.0}));
  const double bad[1] = {1.5};
  EXPECT_THROW(lagrangian_radii(p, bad), ParameterError);
}

TEST(LagrangianRadii, MatchThePlummerSphere) {
  const auto ic = make_scene("plummer", {{"n", ParamValue{std::int64_t{20000}}},
                                         {"seed", ParamValue{std::int64_t{11}}}});
  const double a = 3 * std::numbers::pi / 16;  // Hénon units: the scene's scale radius
  const double f[3] = {0.1, 0.5, 0.9};
  const auto r = lagrangian_radii(ic.particles, f);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(r[k] / (a / std::sqrt(std::pow(f[k], -2.0 / 3.0) - 1)), 1.0, kSampleTolerance)
        << f[k];
}

}  // namespace
}  // namespace orrery
