// SPDX-License-Identifier: MIT
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/scenes/pythagorean.hpp"

namespace orrery {
namespace {

// The distances 5, 4, 3 are exact square roots; each pair term m_i m_j / r is one rounded
// division and the compensated sum adds about one more rounding: a few ulps of E in all.
constexpr double kUlps = 4.0;

TEST(ScenePythagorean, EnergyIsMinus769Over60) {
  const InitialConditions ic = make_pythagorean({});
  auto engine = make_force_engine<double>("direct", EngineOptions{.g = ic.g, .softening = ic.softening, .threads = 1});
  const Diagnostics d = diagnostics_of(ic.particles, *engine, 0.0);
  const double exact = -769.0 / 60.0;
  EXPECT_EQ(d.energy_kinetic, 0.0);
  EXPECT_NEAR(d.energy_total, exact,
              kUlps * std::numeric_limits<double>::epsilon() * std::abs(exact));
  // At rest, centre of mass at the origin as published: 3·(1, 3) + 4·(−2, −1) + 5·(1, −1) = 0.
  EXPECT_EQ(d.com_position.x, 0.0);
  EXPECT_EQ(d.com_position.y, 0.0);
  EXPECT_EQ(ic.particles.mass, (std::vector<double>{3.0, 4.0, 5.0}));
}

}  // namespace
}  // namespace orrery
