// SPDX-License-Identifier: MIT
// `orrery sim --integrator whfast --units au,yr,msun` on a file of orbits: G is the units'
// (REBOUND's 39.476926…), the orbits in the file are converted with it, and whfast, exact on a
// two-body orbit, brings the planet back to where the file put it after its period; a test
// particle (m = 0) rides along. Bad units are refused before any work.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

TEST(SimWhfastCli, AnEarthYearInAstronomicalUnits) {
  test::TempDir dir;
  // The Sun, an Earth of negligible mass on a circle of 1 au, a test particle at 2 au.
  test::write_text(dir / "earth.csv", "m,a,e,primary\n1,,,\n3e-12,1.0,0.0,0\n0,2.0,0.1,0\n");
  // REBOUND's G for au, yr (Julian), msun; 4π² would be 39.478417…: the Julian year is not the
  // orbit's period, which is 2π/√(G (M + m)) = 1.0000189 yr.
  const double g = 39.476926421373;
  const double period = 2 * std::numbers::pi / std::sqrt(g * (1 + 3e-12));
  const auto r = run_cli({"sim", "--input", "earth.csv", "--units", "au,yr,msun", "--integrator",
                          "whfast", "--dt", "0.01", "--t-end", fmt::format("{:.17g}", period),
                          "--out", "run", "--quiet", "--orbits"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const InitialConditions start = read_particle_file(dir / "earth.csv", "", g);
  const auto snapshots = run_snapshots(dir / "run");
  ASSERT_FALSE(snapshots.empty());
  const InitialConditions end = read_particle_file(snapshot_path(dir / "run", snapshots.back()));
  // REBOUND's units.py evaluated in Python gives G to 17 digits; ours is the same to an ulp or two.
  constexpr double kSameG = 1e-15;
  EXPECT_NEAR(end.g / g, 1.0, kSameG);
  EXPECT_NE(end.units.find("au, yr, msun"), std::string::npos) << end.units;
  // whfast is exact on a two-body orbit: after one period (101 steps, 6.3 radians) the Earth is
  // back to rounding (Whfast.ATwoBodyOrbitIsExactForAnyStep: 10⁻¹² per radian).
  constexpr double kOnePeriod = 1e-11;
  const double dx =
      end.particles.x[1] - end.particles.x[0] - (start.particles.x[1] - start.particles.x[0]);
  const double dy =
      end.particles.y[1] - end.particles.y[0] - (start.particles.y[1] - start.particles.y[0]);
  EXPECT_LE(std::hypot(dx, dy), kOnePeriod);
  EXPECT_EQ(end.particles.mass[2], 0.0);
  // --orbits: the elements at the end, the Earth's a = 1 and e = 0 to rounding, the test
  // particle's a = 2 and e = 0.1 (about the Sun and the Earth's barycentre: 3·10⁻¹² off).
  constexpr double kElements = 1e-10;
  const std::size_t table = r.out.find("orbits at t = ");
  ASSERT_NE(table, std::string::npos) << r.out;
  std::size_t id = 0;
  double a = 0, e = 0;
  const std::size_t earth = r.out.find("\n       1 ", table);
  ASSERT_NE(earth, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + earth, "%zu %lf %lf", &id, &a, &e), 3) << r.out;
  EXPECT_NEAR(a, 1.0, kElements);
  EXPECT_NEAR(e, 0.0, kElements);
  const std::size_t particle = r.out.find("\n       2 ", table);
  ASSERT_NE(particle, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + particle, "%zu %lf %lf", &id, &a, &e), 3) << r.out;
  EXPECT_NEAR(a, 2.0, kElements);
  EXPECT_NEAR(e, 0.1, kElements);
}

TEST(SimWhfastCli, BadUnitsAreRefusedBeforeWork) {
  test::TempDir dir;
  test::write_text(dir / "earth.csv", "m,a,e\n1,,\n3e-6,1.0,0.0\n");
  auto r = run_cli({"sim", "--input", "earth.csv", "--units", "au,fortnight,msun", "--out", "run"},
                   dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--units"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'fortnight' is none of them"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
  // A corrector is whfast's, of the orders REBOUND has.
  r = run_cli({"sim", "--input", "earth.csv", "--integrator", "leapfrog", "--corrector", "11",
               "--out", "run"},
              dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--corrector: 11"), std::string::npos) << r.err;
  r = run_cli({"sim", "--input", "earth.csv", "--integrator", "whfast", "--corrector", "4",
               "--out", "run"},
              dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--corrector: 4"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
  r = run_cli({"sim", "--scene", "kepler", "--units", "au,yr,msun", "--out", "run"}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no --units with --scene"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

// --units with the two-galaxies scene is that scene's own parameter (si or nbody), as before.
TEST(SimWhfastCli, UnitsOfTheTwoGalaxiesSceneStayItsOwn) {
  test::TempDir dir;
  for (const char* units : {"nbody", "si"}) {
    const auto r = run_cli({"sim", "--scene", "two-galaxies", "--n", "64", "--units", units,
                            "--stop-after", "1", "--out", units, "--quiet"},
                           dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto snapshots = run_snapshots(dir / units);
    ASSERT_FALSE(snapshots.empty());
    const double g = read_particle_file(snapshot_path(dir / units, snapshots.front())).g;
    if (std::string(units) == "nbody")
      EXPECT_EQ(g, 1.0);
    else
      EXPECT_EQ(g, 6.67384e-11);  // the scene's G in SI
  }
}

}  // namespace
}  // namespace orrery
