// SPDX-License-Identifier: MIT
// Axis ticks land on round numbers a person reads at a glance (Heckbert's nice numbers).
#include <gtest/gtest.h>

#include "orrery/render/axis_ticks.hpp"

namespace orrery {
namespace {

std::vector<std::string> labels(const std::vector<AxisTick>& ticks) {
  std::vector<std::string> out;
  for (const auto& t : ticks) out.push_back(t.label);
  return out;
}

TEST(AxisTicks, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_step(1.3, 6), 0.5);   // 0.217 -> 0.5 (the next nice number up)
  EXPECT_DOUBLE_EQ(nice_step(1.0, 6), 0.2);   // 0.167 -> 0.2
  EXPECT_DOUBLE_EQ(nice_step(7e9, 6), 2e9);   // 1.17e9 -> 2e9
  EXPECT_DOUBLE_EQ(nice_step(3.0, 6), 0.5);   // 0.5 exactly
}

TEST(AxisTicks, LinearTicksAreRoundAndInsideTheRange) {
  EXPECT_EQ(labels(linear_ticks(0.0, 1.0, 6)),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  EXPECT_EQ(labels(linear_ticks(-3.0, 3.0, 6)),
            (std::vector<std::string>{"-3", "-2", "-1", "0", "1", "2", "3"}));
  const auto range = nice_range(0.03, 0.97, 6);
  EXPECT_DOUBLE_EQ(range.first, 0.0);
  EXPECT_DOUBLE_EQ(range.second, 1.0);
}

TEST(AxisTicks, LogTicksArePowersOfTenThinnedWhenMany) {
  EXPECT_EQ(labels(log_ticks(1e-4, 1.0, 6)),
            (std::vector<std::string>{"1e-4", "1e-3", "1e-2", "1e-1", "1e0"}));
  // Under three decades: 1, 2 and 5 of each, as plain numbers.
  EXPECT_EQ(labels(log_ticks(0.1, 10.0, 6)),
            (std::vector<std::string>{"0.1", "0.2", "0.5", "1", "2", "5", "10"}));
  // Ten decades for six ticks: every second one.
  EXPECT_EQ(labels(log_ticks(1e-12, 1e-3, 6)),
            (std::vector<std::string>{"1e-12", "1e-10", "1e-8", "1e-6", "1e-4"}));
}

}  // namespace
}  // namespace orrery
