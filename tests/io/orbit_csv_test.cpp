// SPDX-License-Identifier: MIT
// A CSV file of orbits (`orrery sim --input planets.csv`): a header naming the mass and
// REBOUND's elements, the central body first, each other body on its orbit about the barycentre
// of the lines before (or the body its primary column names); read back, the elements are those
// written, and a bad value is refused naming the file, line and column.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/physics/orbit_primary.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

using test::TempDir;

// Elements through a decimal file and back: the state's roundings, as in the physics tests.
constexpr double kTolerance = 1e-12;

std::filesystem::path write(const TempDir& dir, const std::string& text) {
  const auto path = dir.path() / "planets.csv";
  std::ofstream(path) << text;
  return path;
}

TEST(OrbitCsv, BodiesFromElements) {
  TempDir dir;
  const auto path = write(dir,
                          "m,a,e,inc,Omega,omega,M,primary\n"
                          "1.0,,,,,,,\n"
                          "1e-3,1.0,0.1,0.2,0.3,0.4,0.5,\n"
                          "2e-3,2.5,0.05,0.1,1.0,2.0,3.0,\n"
                          "# a moon of body 1\n"
                          "1e-8,0.01,0.0,0.0,0.0,0.0,1.0,1\n");
  const InitialConditions ic = read_particle_file(path);
  const Particles<double>& p = ic.particles;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p.x[0], 0.0);
  EXPECT_EQ(p.vy[0], 0.0);
  const Orbit one = orbit_about(ic.g, point_mass(p, 1), primary_of(p, 1, {}));
  EXPECT_NEAR(one.a, 1.0, kTolerance);
  EXPECT_NEAR(one.e, 0.1, kTolerance);
  EXPECT_NEAR(one.inc, 0.2, kTolerance);
  EXPECT_NEAR(one.M, 0.5, kTolerance);
  const Orbit two = orbit_about(ic.g, point_mass(p, 2), primary_of(p, 2, {}));
  EXPECT_NEAR(two.a, 2.5, kTolerance);
  EXPECT_NEAR(two.omega, 2.0, kTolerance);
  const Orbit moon = orbit_about(ic.g, point_mass(p, 3), point_mass(p, 1));
  EXPECT_NEAR(moon.a, 0.01, kTolerance);
  EXPECT_NEAR(moon.l, 1.0, 1e-10);  // a circular orbit: l = θ
}

std::string refusal(const std::string& text) {
  TempDir dir;
  try {
    read_particle_file(write(dir, text));
  } catch (const ParameterError& err) {
    return err.parameter().substr(err.parameter().find(':')) + " | " + err.value();
  }
  return "not refused";
}

TEST(OrbitCsv, RefusalsNameLineAndColumn) {
  EXPECT_EQ(refusal("m,a,e\n1,,\n1e-3,1,1\n"), ":3 column 'e' | 1");
  EXPECT_EQ(refusal("m,a,e\n1,,\n1e-3,-1,0.5\n"), ":3 column 'a' | -1 with e = 0.5");
  EXPECT_EQ(refusal("m,a,e\n1,,\n1e-3,,0.5\n"), ":3 column 'a' | none given");
  EXPECT_EQ(refusal("m,a,x\n1,,\n"), ":1 header column 3 | x");
  EXPECT_EQ(refusal("a,e\n1,0.1\n"), ":1 header | no mass column");
  EXPECT_EQ(refusal("m,a,primary\n1,,\n1e-3,1,4\n"), ":3 column 'primary' | 4");
  EXPECT_EQ(refusal("m,a,f,M\n1,,,\n1e-3,1,0.1,0.2\n"), ":3 column 'f, M, E, l, theta, T' | f, M");
  EXPECT_EQ(refusal("m,a\n1,1\n"), ":2 column 'primary' | the Jacobi primary of the first body");
}

}  // namespace
}  // namespace orrery
