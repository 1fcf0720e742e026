// SPDX-License-Identifier: MIT
// Particles at one point with no softening between them are found, and a run refuses them
// before it starts, naming them; a run without --dt whose particles give no step says why.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/coinciding_particles.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

Particles<double> at(std::initializer_list<std::array<double, 3>> points) {
  Particles<double> p;
  p.resize(points.size());
  std::size_t i = 0;
  for (const auto& q : points) {
    p.x[i] = q[0];
    p.y[i] = q[1];
    p.z[i] = q[2];
    p.mass[i] = 1.0;
    p.id[i] = 100 + i;
    ++i;
  }
  return p;
}

TEST(CoincidingParticles, FindsTheLowestPairAtAPoint) {
  const auto p = at({{1, 2, 3}, {0, 0, 0}, {4, 5, 6}, {0, 0, 0}, {1, 2, 3}, {0, 0, 0}});
  const auto pair = find_coinciding_particles(p, 0.0);
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, 0u);
  EXPECT_EQ(pair->second, 4u);
  EXPECT_FALSE(find_coinciding_particles(at({{0, 0, 0}, {0, 0, 1e-150}, {1, 0, 0}}), 0.0));
  const auto signed_zero = find_coinciding_particles(at({{0, 0, 0}, {-0.0, 0, 0}}), 0.0);
  ASSERT_TRUE(signed_zero);
  EXPECT_EQ(signed_zero->second, 1u);
}

TEST(CoincidingParticles, SofteningBetweenThemIsFine) {
  auto p = at({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}});
  EXPECT_FALSE(find_coinciding_particles(p, 0.01));  // global ε
  // Per particle, ε_ij² = (ε_i² + ε_j²)/2: zero only where both are zero.
  p.softening = {0.1, 0.0, 0.2, 0.0};
  EXPECT_FALSE(find_coinciding_particles(p, 0.0));
  p.softening = {0.1, 0.0, 0.0, 0.0};
  const auto pair = find_coinciding_particles(p, 0.5);  // the global ε does not apply
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, 1u);
  EXPECT_EQ(pair->second, 2u);
}

TEST(CoincidingParticles, ComparedAsTheRunHoldsThem) {
  const auto p = at({{1.0, 0, 0}, {1.0 + 1e-12, 0, 0}});
  EXPECT_FALSE(find_coinciding_particles(p, 0.0, Precision::fp64));
  EXPECT_FALSE(find_coinciding_particles(p, 0.0, Precision::fp128));
  EXPECT_TRUE(find_coinciding_particles(p, 0.0, Precision::fp32));
  try {
    check_no_coinciding_particles(p, 0.0, Precision::fp32, "'p.csv'");
    FAIL() << "not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("once rounded to fp32"), std::string::npos) << e.what();
  }
}

// Distinct positions whose separation squared underflows to 0 pull as hard as one point: every
// engine would divide by r² = 0 (the tree engines took such a pair for a body and itself, and
// dropped it).
TEST(CoincidingParticles, PairsWhoseSeparationSquaredUnderflowsAreFound) {
  const auto near = at({{5, 0, 0}, {0, 0, 0}, {3, 3, 3}, {1e-170, 0, 0}});
  const auto pair = find_coinciding_particles(near, 0.0);
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->first, 1u);
  EXPECT_EQ(pair->second, 3u);
  EXPECT_FALSE(find_coinciding_particles(near, 0.0, Precision::fp128));  // 1e-340 is held there
  // One coordinate equal and far from 0, another tiny in both.
  const auto offset = find_coinciding_particles(at({{7, 1e-200, 0}, {1, 1, 1}, {7, -1e-200, 0}}), 0.0);
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->second, 2u);
  // fp32: the squares of differences below about 4e-23 round to 0.
  const auto single = at({{0, 1e-30, 0}, {0, 2e-30, 0}});
  EXPECT_FALSE(find_coinciding_particles(single, 0.0, Precision::fp64));
  EXPECT_TRUE(find_coinciding_particles(single, 0.0, Precision::fp32));
  try {
    check_no_coinciding_particles(near, 0.0, Precision::fp64, "'p.csv'");
    FAIL() << "not refused";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("particles 1 and 3 (ids 101 and 103) at (0, 0, 0) and (1e-170, 0, 0) are so "
                     "close that the square of their separation is 0 in fp64"),
              std::string::npos)
        << m;
  }
}

// 1e308 apart: r² overflows in fp64 and the forces came out NaN, told as "softening too small".
TEST(CoincidingParticles, SeparationsWhoseSquareOverflowsAreRefused) {
  const auto far = at({{-1e308, 0, 0}, {1e308, 0, 0}});
  try {
    check_no_coinciding_particles(far, 0.0, Precision::fp64, "'far.csv'");
    FAIL() << "not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'far.csv': the particles lie so far apart that the "
                                         "square of their separation overflows in fp64"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(check_no_coinciding_particles(far, 0.0, Precision::fp128, "'far.csv'"));
  const auto single = at({{0, 0, 0}, {0, 1e20, 0}});  // 1e40 > fp32's largest, 3.4e38
  EXPECT_NO_THROW(check_no_coinciding_particles(single, 0.0, Precision::fp64, "s"));
  EXPECT_THROW(check_no_coinciding_particles(single, 0.0, Precision::fp32, "s"), InputError);
}

SimJob from_file(const test::TempDir& dir, const std::string& csv) {
  test::write_text(dir / "p.csv", csv);
  SimJob job;
  job.input = (dir / "p.csv").string();
  job.out = (dir / "run.h5").string();
  return job;
}

std::string refusal(const SimJob& job) {
  try {
    run_simulation(job);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CoincidingParticles, ARunRefusesThemNamingIndicesAndIds) {
  test::TempDir dir;
  SimJob job = from_file(dir, "m,x,y,z,vx,vy,vz,id\n1,5,0,0,0,1,0,7\n1,0.5,0,0,0,0,0,8\n"
                              "1,0.5,0,0,0,0,0,9\n");
  for (double dt : {0.0, 0.01}) {  // with and without --dt: the cause, not a step
    job.dt = dt;
    const std::string m = refusal(job);
    EXPECT_NE(m.find("particles 1 and 2 (ids 8 and 9) are both at (0.5, 0, 0)"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("p.csv"), std::string::npos) << m;
    EXPECT_EQ(m.find("--dt"), std::string::npos) << m;
    EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
  }
}

TEST(CoincidingParticles, AllAtOnePointWithSofteningNamesWhyThereIsNoStep) {
  test::TempDir dir;
  const SimJob job = from_file(dir, "m,x,y,z,vx,vy,vz,softening\n1,2,2,2,0,0,0,0.1\n"
                                    "1,2,2,2,0,0,0,0.1\n");
  const std::string m = refusal(job);
  EXPECT_NE(m.find("--dt: none given"), std::string::npos) << m;
  EXPECT_NE(m.find("the 2 particles all sit at one point"), std::string::npos) << m;
  EXPECT_EQ(m.find("0 is not accepted"), std::string::npos) << m;
  EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
}

}  // namespace
}  // namespace orrery
