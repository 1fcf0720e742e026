// SPDX-License-Identifier: MIT
// `orrery sim`'s run loop: snapshots by step count and by time, bit-identical resume of every
// integrator, landing on t_end and on output times, a state that turns non-finite, refusals.
// What a checkpoint holds and how a resume uses it: sim_checkpoint_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "sim_run_fixtures.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

TEST(SimRun, WritesSnapshotsWithTheDocumentedLayoutAndLandsOnTEnd) {
  test::TempDir dir;
  const auto job = test::small_plummer(dir / "run", "leapfrog", Precision::fp64);
  const SimOutcome o = run_simulation(job);
  EXPECT_DOUBLE_EQ(o.time, 1.3);
  EXPECT_EQ(o.steps, 84);  // 83 steps of 1/64 and a shortened one
  h5::Handle f = h5::open_file(run_description_path(dir / "run").string());
  EXPECT_EQ(h5::read_attribute(f.id(), "integrator").text, "leapfrog");
  EXPECT_EQ(h5::read_attribute(f.id(), "scene.n").integer, 48);
  const auto names = run_snapshots(dir / "run");
  ASSERT_EQ(names.size(), 10u);  // t = 0, every 10 steps to 80, and the landing at 1.3
  EXPECT_EQ(names.front(), 0);
  EXPECT_TRUE(std::filesystem::exists(dir / "run" / "snapshot_000000.h5"));
  h5::Handle last = h5::open_file(snapshot_path(dir / "run", names.back()).string());
  EXPECT_EQ(h5::read_attribute(last.id(), "time").reals.at(0), 1.3);
  std::vector<hsize_t> dims;
  h5::read_dataset<double>(last.id(), "position", &dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{48, 3}));
  h5::read_dataset<double>(last.id(), "velocity", &dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{48, 3}));
  EXPECT_EQ(h5::read_dataset<std::uint64_t>(last.id(), "id").size(), 48u);
  for (const char* a : {"time", "energy", "energy_kinetic", "energy_potential", "momentum",
                        "angular_momentum"})
    EXPECT_TRUE(h5::has_attribute(last.id(), a)) << a;
  EXPECT_EQ(h5::read_attribute(last.id(), "momentum").reals.size(), 3u);
}

// Snapshots by time: at the multiples of T, landed on exactly (1/64 does not divide 0.1, so the
// step before each is shortened), and at t_end.
TEST(SimRun, SnapshotsAtOutputTimesLandExactly) {
  test::TempDir dir;
  SimJob job = test::small_plummer(dir / "run", "leapfrog", Precision::fp64);
  job.every = 0;
  job.every_time = 0.1;
  const SimOutcome o = run_simulation(job);
  EXPECT_EQ(o.time, 1.3);
  const auto names = run_snapshots(dir / "run");
  ASSERT_EQ(names.size(), 14u);  // t = 0, 0.1, ..., 1.2, and t_end = 1.3 (≈ 13 × 0.1)
  for (std::size_t k = 0; k + 1 < names.size(); ++k) {
    h5::Handle g = h5::open_file(snapshot_path(dir / "run", names[k]).string());
    EXPECT_EQ(h5::read_attribute(g.id(), "time").reals.at(0), static_cast<double>(k) * 0.1) << k;
  }
  h5::Handle last = h5::open_file(snapshot_path(dir / "run", names.back()).string());
  EXPECT_EQ(h5::read_attribute(last.id(), "time").reals.at(0), 1.3);
  // Steps restart from each output time: every interval of 0.1 is 6 steps of 1/64 and one
  // shortened to 0.00625.
  EXPECT_EQ(o.steps, 13 * 7);
}

TEST(SimRun, RefusesEveryTimeWithEvery) {
  test::TempDir dir;
  SimJob job = test::small_plummer(dir / "run", "leapfrog", Precision::fp64);
  job.every_time = 0.1;  // with every = 10
  EXPECT_THROW(run_simulation(job), ParameterError);
  job.every = 0;
  job.every_time = -1;
  EXPECT_THROW(run_simulation(job), ParameterError);
  EXPECT_FALSE(std::filesystem::exists(dir / "run"));
}

// Every integrator of the registry in every precision, with snapshots by step count or by time
// (shortened steps before each output time): stopped and resumed equals uninterrupted, bit for
// bit.
class SimResume
    : public ::testing::TestWithParam<std::tuple<std::string, Precision, bool>> {};

TEST_P(SimResume, IsBitIdenticalToAnUninterruptedRun) {
  const auto& [integrator, precision, by_time] = GetParam();
  test::TempDir dir;
  auto job = [&](const std::filesystem::path& out) {
    SimJob j = test::small_plummer(out, integrator, precision);
    // fp128 on 8 bodies: its software arithmetic makes each pair ~100 times dearer, and what is
    // checked (the checkpoint holds every bit of the stepper's state, the cadence's and the
    // clock's) does not depend on how many bodies there are.
    const std::int64_t n = precision == Precision::fp128 ? 8 : 16;
    j.scene_settings = {{"n", ParamValue{n}}, {"seed", ParamValue{std::int64_t{7}}}};
    // The trapezoid's fixed-point iteration contracts only while h²|∂a/∂x|/4 < 1: this sphere's
    // close pass near t = 0.75 needs half the step (docs/guide/integrators.md, "Implicit
    // Runge–Kutta").
    if (integrator == "trapezoid") j.dt /= 2;
    if (by_time) {
      j.every = 0;
      j.every_time = 0.1;
    }
    return j;
  };
  run_simulation(job(dir / "whole"));

  // Stopped twice: after a regular step, and (by time) right after a shortened one.
  SimJob first = job(dir / "split");
  first.stop_after = by_time ? 7 : 37;
  ASSERT_TRUE(run_simulation(first).stopped_early);
  // The resumes on the CPU too, as the runs they continue (auto would take a GPU where present).
  SimJob second;
  second.backend = Backend::cpu;
  second.resume = true;
  second.out = (dir / "split").string();
  second.stop_after = 23;
  ASSERT_TRUE(run_simulation(second).stopped_early);
  SimJob rest;
  rest.backend = Backend::cpu;
  rest.resume = true;
  rest.out = (dir / "split").string();
  rest.t_end = 1.3;
  if (!by_time) rest.every = 10;  // by time: the run's own cadence, kept from its file
  rest.checkpoint_every = 10;
  const SimOutcome done = run_simulation(rest);
  EXPECT_EQ(done.time, 1.3);

  const auto whole = test::snapshot_bytes(dir / "whole");
  const auto split = test::snapshot_bytes(dir / "split");
  ASSERT_EQ(whole.size(), split.size());
  for (std::size_t i = 0; i < whole.size(); ++i) ASSERT_EQ(whole[i], split[i]) << "item " << i;
}

std::string resume_case_name(
    const ::testing::TestParamInfo<std::tuple<std::string, Precision, bool>>& info) {
  const auto& [integrator, precision, by_time] = info.param;
  std::string name = integrator + (precision == Precision::fp32   ? "_fp32"
                                   : precision == Precision::fp64 ? "_fp64"
                                                                     : "_fp128");
  name += by_time ? "_every_time" : "_every";
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// Every integrator in every precision it runs in (ias15 not in fp32). ias15 in fp128 iterates
// each step to quadruple precision in software arithmetic, minutes for this run: its fp128
// state's round trip is tested on the stepper (Ias15.ResumesBitForBitInQuadruplePrecision).
std::vector<std::tuple<std::string, Precision, bool>> resume_cases() {
  std::vector<std::tuple<std::string, Precision, bool>> cases;
  for (const IntegratorInfo& info : integrators())
    for (Precision p : {Precision::fp32, Precision::fp64, Precision::fp128})
      if ((p != Precision::fp32 || info.fp32) &&
          (p != Precision::fp128 || info.family != IntegratorFamily::ias15))
        for (bool by_time : {false, true}) cases.emplace_back(std::string(info.name), p, by_time);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Integrators, SimResume, ::testing::ValuesIn(resume_cases()),
                         resume_case_name);

TEST(SimRun, ANonFiniteStateStopsNamingStepTimeAndParticle) {
  test::TempDir dir;
  // Two bodies at rest 1 apart with no softening fall onto each other in one leapfrog step of
  // dt = 1 (each moves a dt²/2 = 0.5), where the force is infinite (bodies at one point, or so
  // close that r² underflows, are refused before the run: coinciding_particles_test.cpp).
  test::write_text(dir / "p.csv",
                   "m,x,y,z,vx,vy,vz\n1,-0.5,0,0,0,0,0\n1,0.5,0,0,0,0,0\n1,1e9,0,0,0,0,0\n");
  SimJob job;
  job.input = (dir / "p.csv").string();
  job.dt = 1;
  job.t_end = 10;
  job.out = (dir / "run").string();
  try {
    run_simulation(job);
    FAIL() << "a non-finite state was not reported";
  } catch (const RunError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("step 1 "), std::string::npos) << m;
    EXPECT_NE(m.find("t = 1)"), std::string::npos) << m;
    EXPECT_NE(m.find("particle 0 (id 0)"), std::string::npos) << m;
    EXPECT_NE(m.find("snapshot_000000.h5"), std::string::npos) << m;
  }
  EXPECT_EQ(run_snapshots(dir / "run"), (std::vector<std::int64_t>{0}));
}

TEST(SimRun, RefusesBadInputBeforeMakingAFile) {
  test::TempDir dir;
  auto refused = [&](SimJob job, const std::string& names) {
    job.out = (dir / "run").string();
    try {
      run_simulation(job);
      ADD_FAILURE() << "accepted: " << names;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "run")) << names;
  };
  SimJob base;
  base.scene = "kepler";
  { SimJob j = base; j.scene = "galaxy"; refused(j, "one of: two-galaxies"); }
  { SimJob j = base; j.engine = "fmm"; refused(j, "one of: direct, tree"); }
  { SimJob j = base; j.integrator = "rk45"; refused(j, "one of: euler"); }
  { SimJob j = base; j.dt = -1; refused(j, "--dt"); }
  { SimJob j = base; j.dt = std::nan(""); refused(j, "--dt"); }
  { SimJob j = base; j.t_end = -2; refused(j, "--t-end"); }
  { SimJob j = base; j.scene = "plummer"; j.scene_settings = {{"n", ParamValue{std::int64_t{1}}}}; refused(j, "n"); }
  { SimJob j = base; j.scene = ""; refused(j, "--scene/--input"); }
  {
    test::write_text(dir / "neg.csv", "m,x,y,z,vx,vy,vz\n1,0,0,0,0,0,0\n-1,1,0,0,0,0,0\n");
    SimJob j = base;
    j.scene = "";
    j.input = (dir / "neg.csv").string();
    refused(j, "neg.csv");
  }
}

TEST(SimRun, ResumeRefusesAnotherRunOrVersion) {
  test::TempDir dir;
  SimJob job = test::small_plummer(dir / "run", "leapfrog", Precision::fp64);
  job.stop_after = 5;
  run_simulation(job);
  SimJob other;
  other.resume = true;
  other.out = (dir / "run").string();
  other.scene = "kepler";
  other.given = {"scene"};
  EXPECT_THROW(run_simulation(other), ParameterError);
  {
    h5::Handle f = h5::open_file_rw(run_description_path(dir / "run").string());
    h5::write_attribute(f.id(), "orrery_version", std::string("0.0.1"));
  }
  SimJob resume;
  resume.resume = true;
  resume.out = (dir / "run").string();
  try {
    run_simulation(resume);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0.0.1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace orrery
