// SPDX-License-Identifier: MIT
// The time of a run as a number, advanced by each step actually taken:
//
//   t ← t + h,  kept as t + e with TwoSum:  s = t + y, y = h + e,  e ← (t − (s − b)) + (y − b),
//   b = s − t,  t ← s                        (Knuth, TAOCP vol. 2, §4.2.2, Theorem B)
//
// so the error of t stays within a few units in its last place however many steps were taken
// (a plain running sum's grows with their number), whatever the steps were: after k equal
// steps t is k·h rounded once, as base + k·h would give (tests/nbody/sim_clock_test.cpp checks
// 10⁵ steps of several sizes), and steps of any length (shortened before an output, chosen by
// an adaptive method) are summed just as well. TwoSum rather than Kahan's Fast2Sum because
// Fast2Sum needs |t| ≥ |h|, which fails on the first step from t = 0. A step that lands on an
// output or end time sets t to that time exactly (e = 0): the run is at that time, and the
// step was computed as the remaining time t_target − t − e.
//
// The clock is double whatever the run's precision: the state moves by h rounded to the run's
// type, which for fp32 differs from h in the eighth digit, as every other fp32 quantity does.
// A checkpoint stores all four fields, so a resumed run's clock continues bit for bit.
#pragma once

#include <cstdint>

namespace orrery {

struct SimClock {
  double t = 0.0;           // the time, rounded
  double t_error = 0.0;     // what t lacks of the exact sum of the steps
  std::int64_t steps = 0;   // steps taken since the run began
  double dt = 0.0;          // the size of the next regular step

  double time() const { return t; }
  // target − (t + e): the step that lands on `target`.
  double remaining(double target) const { return (target - t) - t_error; }

  void advance(double h) {
    const double y = h + t_error;
    const double s = t + y;
    const double b = s - t;
    t_error = (t - (s - b)) + (y - b);
    t = s;
    ++steps;
  }
  void land(double target) {
    t = target;
    t_error = 0.0;
    ++steps;
  }
};

}  // namespace orrery
