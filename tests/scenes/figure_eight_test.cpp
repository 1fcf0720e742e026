// SPDX-License-Identifier: MIT
#include <cmath>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/figure_eight.hpp"

namespace orrery {
namespace {

// E of the published 8-digit data, worked out with 40-digit decimals:
//   K = 1.212858001158036375, W = −2.5/|x1| = −2.499999992924361905.
constexpr double kEnergyOfTheData = -1.2871419917663255;
// A handful of roundings in K, three pair terms and their sum.
constexpr double kRoundingTolerance = 1e-15;
// The energy as usually quoted, E = −1.287142, is good to its last digit.
constexpr double kPublishedEnergy = -1.287142;
constexpr double kPublishedDigit = 1e-6;

TEST(SceneFigureEight, SimosInitialData) {
  const InitialConditions ic = make_figure_eight({});
  const auto& p = ic.particles;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p.x[0], 0.97000436);  // not 0.9700436
  EXPECT_EQ(p.y[0], -0.24308753);
  EXPECT_EQ(p.x[1], -0.97000436);
  EXPECT_EQ(p.vx[2], -0.93240737);
  EXPECT_EQ(p.vy[2], -0.86473146);
  EXPECT_EQ(p.vx[0], 0.93240737 / 2);
  EXPECT_EQ(p.vy[1], 0.86473146 / 2);
  EXPECT_EQ(ic.g, 1.0);
  EXPECT_EQ(ic.t_end, 6.32591398);
  EXPECT_EQ(ic.t_end / ic.dt, 4096.0);
}

TEST(SceneFigureEight, EnergyAndZeroAngularMomentum) {
  const InitialConditions ic = make_figure_eight({});
  auto engine = make_force_engine<double>("direct", EngineOptions{.g = ic.g, .softening = ic.softening, .threads = 1});
  const Diagnostics d = diagnostics_of(ic.particles, *engine, 0.0);
  EXPECT_NEAR(d.energy_total, kEnergyOfTheData, kRoundingTolerance);
  EXPECT_NEAR(d.energy_total, kPublishedEnergy, kPublishedDigit);
  // Bodies 1 and 2 contribute exact opposites, body 3 sits at the origin: L, P and X vanish
  // exactly, not just to rounding.
  EXPECT_EQ(d.angular_momentum.z, 0.0);
  EXPECT_EQ(d.momentum.x, 0.0);
  EXPECT_EQ(d.momentum.y, 0.0);
  EXPECT_EQ(d.com_position.x, 0.0);
  EXPECT_EQ(d.com_position.y, 0.0);
}

}  // namespace
}  // namespace orrery
