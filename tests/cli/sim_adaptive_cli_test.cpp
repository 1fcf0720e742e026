// SPDX-License-Identifier: MIT
// `orrery sim --tolerance`: the Pythagorean three-body problem (Burrau 1913; Szebehely & Peters
// 1967) to t = 70 with dopri5 under step control ends as it must — the body of mass 3 gone, those
// of masses 4 and 5 a binary with a = 0.5525 and e = 0.98870 (a 40-digit Taylor integration gives
// 0.5524964 and 0.9886991) — conserving energy to 10⁻⁸; a run stopped and resumed takes the same
// steps, bit for bit; a tolerance for a method that cannot control its step is refused.
#include <gtest/gtest.h>

#include <cmath>

#include "orrery/io/run_store.hpp"
#include "pythagorean_end.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

constexpr double kEnergyBound = 1e-8;

std::vector<std::string> pythagorean(const std::string& out) {
  return {"sim", "--scene", "pythagorean", "--integrator", "dopri5", "--tolerance", "1e-12",
          "--dt", "1e-3", "--t-end", "70", "--every", "100000", "--backend", "cpu", "--quiet",
          "--out", out};
}

TEST(SimAdaptiveCli, ThePythagoreanProblemEndsInItsBinary) {
  test::TempDir dir;
  const auto r = run_cli(pythagorean("run"), dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  test::expect_pythagorean_end(dir / "run", kEnergyBound);
}

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
