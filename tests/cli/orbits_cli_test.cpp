// SPDX-License-Identifier: MIT
// `orrery sim --input planets.csv` with a file of orbits: the CLI runs the planet for its period
// and it comes back where the file put it; a bad element stops the CLI before any work, naming
// the file's line and column.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/physics/orbit_primary.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// IAS15 keeps a Kepler orbit to ~10⁻¹³ of a over one period (tests/physics/orbit_period_test.cpp);
// a period or velocity off by one part in 10⁸ moves the planet by more than this.
constexpr double kReturnTolerance = 1e-9;

Vec3d relative_position(const Particles<double>& p) {
  return {p.x[1] - p.x[0], p.y[1] - p.y[0], p.z[1] - p.z[0]};
}

TEST(OrbitsCli, APlanetFromItsElementsReturnsAfterItsPeriod) {
  test::TempDir dir;
  test::write_text(dir / "planets.csv",
                   "m,a,e,inc,Omega,omega,f\n1,,,,,,\n1e-3,1.0,0.4,0.3,0.2,1.0,2.5\n");
  const InitialConditions start = read_particle_file(dir / "planets.csv");
  const double period =
      orbit_about(start.g, point_mass(start.particles, 1), point_mass(start.particles, 0)).P;
  EXPECT_NEAR(period, 2 * std::numbers::pi / std::sqrt(1.001), 1e-12);
  const auto r = run_cli({"sim", "--input", "planets.csv", "--integrator", "ias15", "--dt",
                          fmt::format("{}", period / 200), "--t-end", fmt::format("{}", period),
                          "--out", "run", "--quiet"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto snapshots = run_snapshots(dir / "run");
  ASSERT_FALSE(snapshots.empty());
  const InitialConditions end = read_particle_file(snapshot_path(dir / "run", snapshots.back()));
  EXPECT_EQ(end.time, period);
  const Vec3d d = relative_position(end.particles) - relative_position(start.particles);
  EXPECT_LE(std::sqrt(norm2(d)), kReturnTolerance);
}

TEST(OrbitsCli, ABadElementIsRefusedBeforeWork) {
  test::TempDir dir;
  test::write_text(dir / "planets.csv", "m,a,e\n1,,\n1e-3,1.0,1.0\n");
  const auto r = run_cli({"sim", "--input", "planets.csv", "--out", "run"}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("planets.csv:3 column 'e': 1 is not accepted"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

}  // namespace
}  // namespace orrery
