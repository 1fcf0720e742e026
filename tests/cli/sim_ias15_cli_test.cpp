// SPDX-License-Identifier: MIT
// `orrery sim --integrator ias15`: the Pythagorean three-body problem to t = 70 at the default
// ε_b (no --tolerance, the scene's first step) ends as it must — the body of mass 3 gone, those
// of masses 4 and 5 a binary with a = 0.5525 and e = 0.98870 to 10⁻³ (tests/cli/pythagorean_end.hpp)
// — and conserves energy to 10⁻¹⁰ (Rein & Spiegel 2015: IAS15's error is rounding, ~10⁻¹¹ here).
#include <gtest/gtest.h>

#include <cmath>

#include "pythagorean_end.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

constexpr double kEnergyBound = 1e-10;  // the issue's

TEST(SimIas15Cli, ThePythagoreanProblemEndsInItsBinary) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--scene", "pythagorean", "--integrator", "ias15", "--t-end",
                          "70", "--every", "100000", "--backend", "cpu", "--quiet", "--out",
                          "run"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  test::expect_pythagorean_end(dir / "run", kEnergyBound);
}

// --tolerance is ias15's ε_b; a value that is not a tolerance is refused before any work.
TEST(SimIas15Cli, RefusesANegativeTolerance) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--scene", "kepler", "--integrator", "ias15", "--tolerance",
                          "-1", "--out", "run"},
                         dir.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--tolerance"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

// ias15 does not run in fp32 (integrate/ias15/ias15_table.hpp): refused, naming the precisions
// it has, before any work.
TEST(SimIas15Cli, RefusesFp32) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--scene", "kepler", "--integrator", "ias15", "--precision",
                          "fp32", "--out", "run"},
                         dir.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--precision: fp32"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fp64 or fp128"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace orrery
