// SPDX-License-Identifier: MIT
// Escape from the Hénon–Heiles potential above its saddles' energy 1/6 (the growth kernel
// watching the three exits of jobs/chaos_job.hpp's chaos_exits_of), at E = 0.25 as Aguirre,
// Vallejo & Sanjuán, Phys. Rev. E 64, 066208 (2001) set it up: an orbit on the y axis (x = px = 0
// keeps x = 0) leaves by the upper channel when the quadrature of its motion says; one on the
// line at 210° (a mirror line of the potential) by the lower left one; mirrored starts (x, px) →
// (−x, −px) leave by the mirrored channel at the same time, bit for bit (the mirror only flips
// signs, which rounding respects); and nothing escapes below 1/6.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "orrery/ensemble/chaos/chaos_catalogue.hpp"
#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/jobs/chaos_job.hpp"

namespace orrery {
namespace {

constexpr int kEscapeHenonHeiles = 0;  // index in EnsembleProblems
constexpr double kEscapeEnergy = 0.25;
constexpr int kExitOutput = GrowthIndicators<double, 1>::exit;
constexpr int kTimeOutput = GrowthIndicators<double, 1>::escape_time;

double escape_potential(double x, double y) { return (x * x + y * y) / 2 + x * x * y - y * y * y / 3; }

struct Escapes {
  std::vector<int> exit;
  std::vector<double> time;
};

Escapes escapes_of(const std::vector<double>& rows, double t_end, std::int64_t every = 10) {
  ChaosSetup s;
  s.ensemble.problem = kEscapeHenonHeiles;
  s.ensemble.integrator = ensemble_integrator_index("yoshida4");
  s.ensemble.dt = 0.01;
  s.ensemble.steps = static_cast<std::int64_t>(std::llround(t_end / s.ensemble.dt));
  s.ensemble.trajectories = static_cast<std::int64_t>(rows.size() / 4);
  s.ensemble.starts.rows = rows.data();
  s.kernel = ChaosKernel::growth;
  s.every = every;
  s.samples = 1;
  s.exits = chaos_exits_of(kEscapeHenonHeiles);
  EnsembleRunOptions on_cpu;
  on_cpu.backend = Backend::cpu;
  const ChaosOutcome o = run_chaos(s, on_cpu);
  Escapes e;
  const auto n = static_cast<std::size_t>(o.trajectories);
  for (std::size_t i = 0; i < n; ++i) {
    e.exit.push_back(static_cast<int>(o.values[kExitOutput * n + i]));
    e.time.push_back(o.values[kTimeOutput * n + i]);
  }
  return e;
}

// The time to go from y = 0 to y = 2 along the y axis at energy E, moving up all the way:
// ∫ dy / √(2(E − V(0, y))), by Simpson's rule on a fine grid (V(0, y) < 1/6 < E: no turning
// point, a smooth integrand).
double time_up_the_axis(double energy) {
  constexpr int kIntervals = 20000;
  const double h = 2.0 / kIntervals;
  const auto f = [&](double y) { return 1.0 / std::sqrt(2 * (energy - escape_potential(0, y))); };
  double sum = f(0) + f(2);
  for (int i = 1; i < kIntervals; ++i) sum += (i % 2 ? 4 : 2) * f(i * h);
  return sum * h / 3;
}

TEST(EscapeBasin, AnOrbitUpTheAxisLeavesByTheUpperChannelWhenTheQuadratureSays) {
  const double p = std::sqrt(2 * kEscapeEnergy);
  const std::vector<double> rows{0.0, 0.0, 0.0, p};
  const Escapes e = escapes_of(rows, 20);
  ASSERT_EQ(e.exit[0], 0) << "up";
  // Seen at the end of the first interval (τ = 10 steps of 0.01) past the crossing of y = 2;
  // yoshida4's error in that time, ~h⁴ per unit time, is far below τ.
  constexpr double kInterval = 0.1, kIntegration = 1e-6;
  const double t = time_up_the_axis(kEscapeEnergy);
  EXPECT_GE(e.time[0], t - kIntegration);
  EXPECT_LT(e.time[0], t + kInterval + kIntegration);
  // The same orbit rotated onto the mirror line at 210°: the lower left channel, at the same
  // time (to the rotation's rounding, well within an interval unless a crossing falls on an
  // interval's end).
  const double c = std::sqrt(3.0) / 2;
  const std::vector<double> rotated{0.0, 0.0, -c * p, -0.5 * p};
  const Escapes r = escapes_of(rotated, 20);
  EXPECT_EQ(r.exit[0], 1) << "left";
  EXPECT_NEAR(r.time[0], e.time[0], kInterval + kIntegration);
}

TEST(EscapeBasin, MirroredStartsGiveTheMirroredBasinBitForBit) {
  // Starts on x = 0 across (y, py) at E = 0.25 with px > 0, and their mirrors with px < 0.
  std::vector<double> rows, mirrored;
  constexpr int kSide = 24;
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j) {
      const double y = -0.45 + 0.9 * (i + 0.5) / kSide, py = -0.6 + 1.2 * (j + 0.5) / kSide;
      const double px2 = 2 * (kEscapeEnergy - escape_potential(0, y)) - py * py;
      if (px2 <= 0) continue;
      rows.insert(rows.end(), {0.0, y, std::sqrt(px2), py});
      mirrored.insert(mirrored.end(), {-0.0, y, -std::sqrt(px2), py});
    }
  const Escapes a = escapes_of(rows, 200), b = escapes_of(mirrored, 200);
  int counts[3] = {};
  for (std::size_t i = 0; i < a.exit.size(); ++i) {
    const int mirror_of[4] = {-1, 0, 2, 1};  // stayed, up, left ↔ right
    EXPECT_EQ(b.exit[i], mirror_of[a.exit[i] + 1]) << "start " << i;
    if (std::isnan(a.time[i]))
      EXPECT_TRUE(std::isnan(b.time[i])) << "start " << i;
    else
      EXPECT_EQ(a.time[i], b.time[i]) << "start " << i;
    if (a.exit[i] >= 0) ++counts[a.exit[i]];
  }
  // Above the saddles most starts leave by t = 200, by every channel (the basins of Aguirre et
  // al.'s figures interleave all three).
  for (int c = 0; c < 3; ++c) EXPECT_GT(counts[c], 0) << "channel " << c;
  EXPECT_GT(counts[0] + counts[1] + counts[2], static_cast<int>(a.exit.size()) / 2);
}

TEST(EscapeBasin, NothingEscapesBelowTheSaddlesEnergy) {
  std::vector<double> rows;
  for (int i = 0; i < 16; ++i) {
    const double y = -0.4 + 0.05 * i, e = 1.0 / 6 - 1e-3;
    rows.insert(rows.end(), {0.0, y, std::sqrt(2 * (e - escape_potential(0, y))), 0.0});
  }
  const Escapes e = escapes_of(rows, 500);
  for (std::size_t i = 0; i < e.exit.size(); ++i) {
    EXPECT_EQ(e.exit[i], -1) << "start " << i;
    EXPECT_TRUE(std::isnan(e.time[i])) << "start " << i;
  }
}

}  // namespace
}  // namespace orrery
