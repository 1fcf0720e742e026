// SPDX-License-Identifier: MIT
// `orrery sim --tolerance`: the Pythagorean three-body problem (Burrau 1913; Szebehely & Peters
// 1967) to t = 70 under step control (dopri5 and dop853, TOL = 10⁻¹²)
// ends as it must — the body of mass 3 gone, those of masses 4 and 5 a binary with a = 0.5525
// and e = 0.98870 (a 40-digit Taylor integration gives 0.5524964 and 0.9886991) — conserving
// energy to 10⁻⁸; a run stopped and resumed takes the same steps, bit for bit; a tolerance for a
// method that cannot control its step is refused.
#include <gtest/gtest.h>

#include <cmath>

#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

constexpr double kBinaryA = 0.5524964, kBinaryE = 0.9886991;
constexpr double kOrbitBound = 1e-3;  // the issue's
constexpr double kEnergyBound = 1e-8;

std::vector<std::string> pythagorean(const std::string& out,
                                     const std::string& method = "dopri5") {
  return {"sim", "--scene", "pythagorean", "--integrator", method, "--tolerance", "1e-12",
          "--dt", "1e-3", "--t-end", "70", "--every", "100000", "--backend", "cpu", "--quiet",
          "--out", out};
}

class PythagoreanCli : public ::testing::TestWithParam<std::string> {};

TEST_P(PythagoreanCli, ThePythagoreanProblemEndsInItsBinary) {
  test::TempDir dir;
  const auto r = run_cli(pythagorean("run", GetParam()), dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto last = snapshot_path(dir / "run", run_snapshots(dir / "run").back());
  h5::Handle f = h5::open_file(last.string());
  const auto x = h5::read_dataset<double>(f.id(), "position");
  const auto v = h5::read_dataset<double>(f.id(), "velocity");
  const auto m = h5::read_dataset<double>(f.id(), "mass");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(h5::read_attribute(f.id(), "time").reals.at(0), 70.0);
  EXPECT_LT(std::abs(h5::read_attribute(f.id(), "drift_energy").reals.at(0)), kEnergyBound);
  // Bodies in the scene's order: masses 3, 4, 5.
  auto row = [&](const std::vector<double>& a, int i, int k) { return a[3 * i + k]; };
  double r2 = 0, w2 = 0, h[3];
  double rr[3], ww[3];
  for (int k = 0; k < 3; ++k) {
    rr[k] = row(x, 1, k) - row(x, 2, k), ww[k] = row(v, 1, k) - row(v, 2, k);
    r2 += rr[k] * rr[k], w2 += ww[k] * ww[k];
  }
  h[0] = rr[1] * ww[2] - rr[2] * ww[1], h[1] = rr[2] * ww[0] - rr[0] * ww[2],
  h[2] = rr[0] * ww[1] - rr[1] * ww[0];
  const double mu = m[1] + m[2], energy = 0.5 * w2 - mu / std::sqrt(r2);
  const double a = -mu / (2 * energy);
  const double e = std::sqrt(1 + 2 * energy * (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) / (mu * mu));
  EXPECT_NEAR(a, kBinaryA, kOrbitBound);
  EXPECT_NEAR(e, kBinaryE, kOrbitBound);
  // The body of mass 3 is unbound from the binary's centre of mass, far away and leaving.
  double d2 = 0, rv = 0;
  for (int k = 0; k < 3; ++k) {
    const double c = (m[1] * row(x, 1, k) + m[2] * row(x, 2, k)) / mu;
    const double cv = (m[1] * row(v, 1, k) + m[2] * row(v, 2, k)) / mu;
    d2 += (row(x, 0, k) - c) * (row(x, 0, k) - c);
    rv += (row(x, 0, k) - c) * (row(v, 0, k) - cv);
  }
  EXPECT_GT(std::sqrt(d2), 10 * a);
  EXPECT_GT(rv, 0);
}

// verner65, fehlberg78 and the Feagin pairs at the same tolerance miss the binary (a off by
// 5·10⁻³ to 0.13): their error estimates are weaker guides through the close encounters.
INSTANTIATE_TEST_SUITE_P(Pairs, PythagoreanCli, ::testing::Values("dopri5", "dop853"),
                         [](const auto& info) { return info.param; });

TEST(SimAdaptiveCli, AStoppedRunResumesToTheSameBits) {
  test::TempDir dir;
  ASSERT_EQ(run_cli(pythagorean("whole"), dir.path()).status, 0);
  auto first = pythagorean("split");
  first.insert(first.end(), {"--stop-after", "20000"});
  ASSERT_EQ(run_cli(first, dir.path()).status, 0);
  const auto rest = run_cli({"sim", "--resume", "--out", "split", "--backend", "cpu", "--quiet"},
                            dir.path());
  ASSERT_EQ(rest.status, 0) << rest.err;
  const auto whole = test::run_outputs(dir / "whole");
  const auto split = test::run_outputs(dir / "split");
  for (const auto& [file, bytes] : whole)
    if (file.rfind("snapshot_", 0) == 0) {
      ASSERT_TRUE(split.count(file)) << file;
      EXPECT_TRUE(split.at(file) == bytes) << file;
    }
}

// Too loose a tolerance lets two bodies fall onto each other at an encounter; the control then
// asks for ever smaller steps. The run stops, saying so, instead of crawling on.
TEST(SimAdaptiveCli, AStepThatCollapsesStopsTheRun) {
  test::TempDir dir;
  auto args = pythagorean("run");
  args[6] = "1e-4";  // --tolerance
  args[8] = "1e-2";  // --dt: the first step (from 10⁻³ the same tolerance happens to get through)
  const auto r = run_cli(args, dir.path());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("the step size fell to"), std::string::npos) << r.err;
  EXPECT_FALSE(run_checkpoints(dir / "run").empty());
}

TEST(SimAdaptiveCli, ATolerancePassesOnlyToAnEmbeddedPair) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--scene", "kepler", "--integrator", "rk4", "--tolerance", "1e-8",
                          "--out", "run"},
                         dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--tolerance: 1e-08"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dopri5"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace orrery
