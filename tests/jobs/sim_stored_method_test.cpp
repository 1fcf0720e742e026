// SPDX-License-Identifier: MIT
// Settings of a method stored with a run. ias15's two step criteria
// (integrate/ias15/array_stepper.hpp): on the Pythagorean problem to t = 70 each takes REBOUND's
// number of steps to 1 % with the energy kept; the criterion a run was made with is stored and
// kept on resume, bit for bit; a run stored before the choice existed resumes with the global
// criterion it was made with. whfast's safe mode likewise: a run stored before the choice
// resumes in safe mode, as it was made.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include "integrate/planetary_run.hpp"
#include "orrery/core/error.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/io/checkpoint_file.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "orrery/nbody/engines.hpp"
#include "orrery/nbody/simulation.hpp"
#include "orrery/scenes/pythagorean.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// REBOUND 5.0.0 (commit 6c44115, built from its source), bench/rebound/ias15_pythagorean.c: the
// Pythagorean problem (G = 1, masses 3, 4, 5 at rest), first step 2⁻¹⁶, reb_simulation_integrate
// to t = 70 at its default ε = 10⁻⁹; r->steps_done with adaptive_mode 2 (PRS23) and 1 (global).
// Both numbers were printed by REBOUND (bench/rebound_side_by_side.sh runs the driver).
constexpr double kReboundStepsPrs24 = 5382;
constexpr double kReboundStepsGlobal = 12565;
constexpr double kStepsRelativeBound = 0.01;   // the "within 1 %"
constexpr double kPythagoreanEnergyBound = 1e-10;  // IAS15's error is rounding, ~10⁻¹¹ here

struct PythagoreanRun {
  std::int64_t steps;
  double energy_error;
};

PythagoreanRun pythagorean_to_70(const std::string& criterion) {
  const InitialConditions ic = make_pythagorean(PythagoreanParams{});
  SimClock clock;
  clock.dt = ic.dt;
  Simulation<double> sim(ic.particles,
                         make_force_engine<double>("direct", EngineOptions{.g = 1.0, .threads = 1}),
                         make_array_stepper<double>("ias15", 0.0, {}, 0, criterion), clock);
  const double e0 = sim.diagnostics().energy_total;
  const double end = 70.0;
  while (sim.clock().remaining(end) > 0.0) {
    const double left = sim.clock().remaining(end);
    if (left <= sim.clock().dt)
      sim.step_onto(end, left);
    else
      sim.step(sim.clock().dt);
  }
  const double e1 = sim.diagnostics().energy_total;
  return {sim.clock().steps, std::abs((e1 - e0) / e0)};
}

TEST(Ias15Criterion, Prs24TakesReboundsStepsOnThePythagoreanProblem) {
  const PythagoreanRun r = pythagorean_to_70("prs24");
  std::printf("prs24: %lld steps (REBOUND %g), energy error %.3e\n",
              static_cast<long long>(r.steps), kReboundStepsPrs24, r.energy_error);
  EXPECT_NEAR(static_cast<double>(r.steps) / kReboundStepsPrs24, 1.0, kStepsRelativeBound);
  EXPECT_LT(r.energy_error, kPythagoreanEnergyBound);
}

TEST(Ias15Criterion, GlobalTakesReboundsStepsOnThePythagoreanProblem) {
  const PythagoreanRun r = pythagorean_to_70("global");
  std::printf("global: %lld steps (REBOUND %g), energy error %.3e\n",
              static_cast<long long>(r.steps), kReboundStepsGlobal, r.energy_error);
  EXPECT_NEAR(static_cast<double>(r.steps) / kReboundStepsGlobal, 1.0, kStepsRelativeBound);
  EXPECT_LT(r.energy_error, kPythagoreanEnergyBound);
}

TEST(Ias15Criterion, AnUnknownNameOrAnotherMethodIsRefused) {
  try {
    make_array_stepper<double>("ias15", 0.0, {}, 0, "aarseth");
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "ias15-criterion");
    EXPECT_NE(std::string(e.what()).find("prs24, global"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_array_stepper<double>("leapfrog", 0.0, {}, 0, "global"), ParameterError);
  EXPECT_NO_THROW(make_array_stepper<double>("leapfrog", 0.0, {}, 0, "prs24"));
}

// The Pythagorean problem to t = 8 (the first close encounters), a snapshot every 50 steps.
SimJob criterion_job(const std::filesystem::path& out, const std::string& criterion) {
  SimJob job;
  job.backend = Backend::cpu;
  job.scene = "pythagorean";
  job.integrator = "ias15";
  job.ias15_criterion = criterion;
  job.t_end = 8.0;
  job.every = 50;
  job.checkpoint_every = 50;
  job.threads = 1;
  job.out = out.string();
  return job;
}

SimJob criterion_resume(const std::filesystem::path& out) {
  SimJob rest;
  rest.backend = Backend::cpu;
  rest.resume = true;
  rest.out = out.string();
  return rest;
}

// The positions and velocities of every snapshot, as raw bytes.
std::vector<std::vector<std::uint8_t>> criterion_run_bytes(const std::filesystem::path& run) {
  std::vector<std::vector<std::uint8_t>> all;
  for (std::int64_t index : run_snapshots(run)) {
    h5::Handle g = h5::open_file(snapshot_path(run, index).string());
    for (const char* d : {"position", "velocity"}) {
      const auto v = h5::read_dataset<double>(g.id(), d);
      std::vector<std::uint8_t> b(v.size() * sizeof(double));
      std::memcpy(b.data(), v.data(), b.size());
      all.push_back(std::move(b));
    }
  }
  return all;
}

// As a run stored before `name` was a stored setting: the attribute gone from run.h5, its
// checkpoints bound to it by no record, as older checkpoints are.
void make_older(const std::filesystem::path& run, const char* name) {
  {
    h5::Handle f = h5::open_file_rw(run_description_path(run).string());
    ASSERT_TRUE(h5::has_attribute(f.id(), name));
    ASSERT_GE(H5Adelete(f.id(), name), 0);
  }
  for (std::int64_t steps : run_checkpoints(run)) {
    const auto path = checkpoint_path(run, steps);
    Checkpoint<double> c = read_checkpoint_file<double>(path);
    c.run_crc32 = -1;
    write_checkpoint_file(path, c);
  }
}

TEST(Ias15Criterion, TheRunsCriterionIsStoredAndKeptOnResume) {
  test::TempDir dir;
  run_simulation(criterion_job(dir / "global", "global"));
  run_simulation(criterion_job(dir / "prs24", "prs24"));
  ASSERT_NE(criterion_run_bytes(dir / "global"), criterion_run_bytes(dir / "prs24"));

  for (const std::string criterion : {"global", "prs24"}) {
    const auto split = dir / ("split-" + criterion);
    SimJob first = criterion_job(split, criterion);
    first.stop_after = 120;
    ASSERT_TRUE(run_simulation(first).stopped_early);
    SimJob other = criterion_resume(split);
    other.ias15_criterion = criterion == "global" ? "prs24" : "global";
    other.given = {"ias15-criterion"};
    EXPECT_THROW(run_simulation(other), ParameterError) << criterion;
    run_simulation(criterion_resume(split));  // the criterion from the run's file
    EXPECT_EQ(criterion_run_bytes(split), criterion_run_bytes(dir / criterion)) << criterion;
  }
}

TEST(Ias15Criterion, ARunStoredBeforeTheChoiceResumesWithTheGlobalCriterion) {
  test::TempDir dir;
  run_simulation(criterion_job(dir / "whole", "global"));
  SimJob first = criterion_job(dir / "older", "global");
  first.stop_after = 120;
  ASSERT_TRUE(run_simulation(first).stopped_early);
  make_older(dir / "older", "ias15-criterion");
  SimJob other = criterion_resume(dir / "older");
  other.ias15_criterion = "prs24";
  other.given = {"ias15-criterion"};
  EXPECT_THROW(run_simulation(other), ParameterError);
  run_simulation(criterion_resume(dir / "older"));  // the default now is prs24; the run's global
  EXPECT_EQ(criterion_run_bytes(dir / "older"), criterion_run_bytes(dir / "whole"));
}

// The outer Solar System (REBOUND's initial conditions, a CSV file in `dir`) with whfast and
// the 11th-order corrector, 2000 steps of 0.4.
SimJob whfast_job(const std::filesystem::path& dir, const std::string& name, bool safe) {
  const auto csv = dir / "outer.csv";
  if (!std::filesystem::exists(csv)) {
    const Particles<double> p = planetary_test::rebound_outer_solar_system();
    std::ofstream out(csv);
    out << std::setprecision(17) << "m,x,y,z,vx,vy,vz\n";
    for (std::size_t i = 0; i < p.size(); ++i)
      out << p.mass[i] << ',' << p.x[i] << ',' << p.y[i] << ',' << p.z[i] << ',' << p.vx[i]
          << ',' << p.vy[i] << ',' << p.vz[i] << '\n';
  }
  SimJob job;
  job.backend = Backend::cpu;
  job.input = csv.string();
  job.integrator = "whfast";
  job.corrector = 11;
  job.whfast_safe_mode = safe;
  job.dt = 0.4;
  job.t_end = 800.0;
  job.every = 100;
  job.checkpoint_every = 100;
  job.threads = 1;
  job.out = (dir / name).string();
  return job;
}

TEST(WhfastSafeMode, ARunStoredBeforeTheChoiceResumesInSafeMode) {
  test::TempDir dir;
  run_simulation(whfast_job(dir.path(), "safe", true));
  run_simulation(whfast_job(dir.path(), "kept", false));
  ASSERT_NE(criterion_run_bytes(dir / "safe"), criterion_run_bytes(dir / "kept"));
  SimJob first = whfast_job(dir.path(), "older", true);
  first.stop_after = 700;
  ASSERT_TRUE(run_simulation(first).stopped_early);
  make_older(dir / "older", "whfast-safe-mode");
  run_simulation(criterion_resume(dir / "older"));  // the default now keeps; the run was safe
  EXPECT_EQ(criterion_run_bytes(dir / "older"), criterion_run_bytes(dir / "safe"));
}

// A run of another method stored before both choices resumes as it was made, and neither
// setting is taken by another method.
TEST(WhfastSafeMode, OtherMethodsIgnoreBothSettingsOnResumeAndRefuseThemWhenGiven) {
  test::TempDir dir;
  SimJob whole = criterion_job(dir / "whole", "prs24");
  whole.integrator = "leapfrog";
  whole.dt = 1.0 / 1024;
  whole.t_end = 1.5;
  run_simulation(whole);
  SimJob first = whole;
  first.out = (dir / "older").string();
  first.stop_after = 700;
  ASSERT_TRUE(run_simulation(first).stopped_early);
  make_older(dir / "older", "ias15-criterion");
  make_older(dir / "older", "whfast-safe-mode");
  run_simulation(criterion_resume(dir / "older"));
  EXPECT_EQ(criterion_run_bytes(dir / "older"), criterion_run_bytes(dir / "whole"));

  SimJob safe = whole;
  safe.out = (dir / "refused").string();
  safe.whfast_safe_mode = true;
  try {
    run_simulation(safe);
    FAIL();
  } catch (const ParameterError& e) {
    EXPECT_EQ(e.parameter(), "--whfast-safe-mode");
  }
  SimJob global = whole;
  global.out = (dir / "refused").string();
  global.ias15_criterion = "global";
  EXPECT_THROW(run_simulation(global), ParameterError);
  EXPECT_FALSE(std::filesystem::exists(dir / "refused"));
}

}  // namespace
}  // namespace orrery
