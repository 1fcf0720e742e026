// SPDX-License-Identifier: MIT
// The run clock: time as a compensated sum of the steps taken, and exact landings.
#include <gtest/gtest.h>

#include <cstdint>

#include "orrery/nbody/sim_clock.hpp"

namespace orrery {
namespace {

// After k equal steps the compensated sum is round(k·h), the product base + k·h that the clock
// replaces would give (barring a sum within 2^-106 of a tie, which these steps do not meet).
TEST(SimClock, EqualStepsSumToTheRoundedProduct) {
  const std::int64_t kSteps = 100000;
  int naive_differs = 0;
  for (const double h : {0.1, 1.0 / 64, 0.001, 0.0031415926535897933, 1e-7}) {
    SimClock clock;
    double naive = 0.0;
    for (std::int64_t k = 1; k <= kSteps; ++k) {
      clock.advance(h);
      naive += h;
      ASSERT_EQ(clock.time(), static_cast<double>(k) * h) << "h = " << h << ", step " << k;
      if (naive != static_cast<double>(k) * h) ++naive_differs;
    }
    EXPECT_EQ(clock.steps, kSteps);
  }
  // A plain running sum drifts: the comparison above can fail.
  EXPECT_GT(naive_differs, 0);
}

// Steps of mixed lengths (an output time shortens one) still sum to the rounded exact sum: here
// the steps are multiples of 2^-20, so every partial sum is exact in double and t must equal it.
TEST(SimClock, MixedStepsSumExactly) {
  SimClock clock;
  std::int64_t units = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::int64_t u = 1 + (i * 7919) % 1031;
    clock.advance(static_cast<double>(u) * 0x1p-20);
    units += u;
    ASSERT_EQ(clock.time(), static_cast<double>(units) * 0x1p-20);
    ASSERT_EQ(clock.t_error, 0.0);
  }
}

// The step that lands is the remaining time including what t lacks, and landing sets t exactly.
TEST(SimClock, LandingSetsTheTimeExactly) {
  SimClock clock;
  clock.dt = 0.1;
  for (int i = 0; i < 7; ++i) clock.advance(clock.dt);
  const double h = clock.remaining(0.75);
  EXPECT_GT(h, 0.0);
  EXPECT_LT(h, clock.dt);
  clock.land(0.75);
  EXPECT_EQ(clock.time(), 0.75);
  EXPECT_EQ(clock.t_error, 0.0);
  EXPECT_EQ(clock.steps, 8);
  EXPECT_EQ(clock.remaining(0.75), 0.0);
}

}  // namespace
}  // namespace orrery
