// SPDX-License-Identifier: MIT
// A run continued from another run's snapshot (`--input`), and a run whose energy drifts.
#include <gtest/gtest.h>

#include "orrery/core/error.hpp"
#include "orrery/io/hdf5_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/sim_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

double attribute(const std::filesystem::path& file, const char* name) {
  h5::Handle f = h5::open_file(file.string());
  return h5::read_attribute(f.id(), name).reals.at(0);
}

SimJob plummer(const std::filesystem::path& out) {
  SimJob job;
  job.scene = "plummer";
  job.scene_settings = {{"n", ParamValue{std::int64_t{16}}}, {"seed", ParamValue{std::int64_t{2}}}};
  job.dt = 1.0 / 128;
  job.t_end = 0.5;
  job.every = 8;
  job.threads = 1;
  job.out = out.string();
  return job;
}

// From a snapshot the clock goes on from the snapshot's time, with the run's dt, softening and
// end time; a run folder as --input means its newest snapshot.
TEST(SimContinue, FromASnapshotTheClockAndTheStepGoOn) {
  test::TempDir dir;
  SimJob first = plummer(dir / "first");
  first.scene_settings.emplace_back("softening", ParamValue{0.05});
  first.t_end = 0.25;
  run_simulation(first);
  const auto snapshot = snapshot_path(dir / "first", 2);
  const double t = attribute(snapshot, "time");
  EXPECT_EQ(t, 16.0 / 128);

  SimJob next;
  next.input = snapshot.string();
  next.out = (dir / "next").string();
  next.t_end = 0.5;
  next.threads = 1;
  const SimOutcome o = run_simulation(next);
  EXPECT_EQ(o.time, 0.5);
  EXPECT_EQ(o.steps, 48);  // (0.5 − 0.125) / (1/128): the first run's dt, not an estimate
  const auto start = snapshot_path(dir / "next", 0);
  EXPECT_EQ(attribute(start, "time"), t);
  EXPECT_EQ(attribute(start, "dt"), 1.0 / 128);
  EXPECT_EQ(attribute(start, "softening"), 0.05);

  // The folder: its newest snapshot (t = 0.25), and its end time is reached already.
  SimJob from_run;
  from_run.input = (dir / "first").string();
  from_run.out = (dir / "from-run").string();
  EXPECT_THROW(run_simulation(from_run), ParameterError);  // t-end 0.25 is no time after 0.25
  from_run.t_end = 0.3;
  from_run.scene_settings = {{"softening", ParamValue{0.0}}};  // replaces the run's
  run_simulation(from_run);
  EXPECT_EQ(attribute(snapshot_path(dir / "from-run", 0), "time"), 0.25);
  EXPECT_EQ(attribute(snapshot_path(dir / "from-run", 0), "softening"), 0.0);
  // Other scene parameters mean nothing for particles from a file.
  SimJob other = next;
  other.out = (dir / "other").string();
  other.scene_settings = {{"n", ParamValue{std::int64_t{3}}}};
  EXPECT_THROW(run_simulation(other), ParameterError);
}

// The Pythagorean problem with rk4 at the scene's dt loses its energy at the close encounter
// near t = 15.8: the run says so once and records it in every snapshot from there on.
TEST(SimContinue, AnEnergyDriftPastTheLimitIsReportedAndRecorded) {
  test::TempDir dir;
  SimJob job;
  job.scene = "pythagorean";
  job.integrator = "rk4";
  job.t_end = 16.2;
  job.threads = 1;
  job.out = (dir / "run").string();
  std::vector<std::string> warnings;
  SimObserver observer;
  observer.warning = [&](const std::string& w) { warnings.push_back(w); };
  const SimOutcome o = run_simulation(job, observer);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("relative energy drift reached"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("--max-drift 0.001"), std::string::npos) << warnings[0];
  EXPECT_TRUE(o.drift_warning);
  const auto snapshots = run_snapshots(dir / "run");
  h5::Handle last = h5::open_file(snapshot_path(dir / "run", snapshots.back()).string());
  const auto w = h5::read_attribute(last.id(), "drift_warning").reals;
  ASSERT_EQ(w.size(), 3u);  // time, step, drift
  EXPECT_GT(w[0], 15.0);
  EXPECT_GT(w[2], 1e-3);
  h5::Handle before = h5::open_file(snapshot_path(dir / "run", snapshots.back() / 2).string());
  EXPECT_FALSE(h5::has_attribute(before.id(), "drift_warning"));
}

// With stop_on_drift the run stops there, after a checkpoint, and says why (a Plummer sphere at
// a coarse step passes 1e-3 within a few dozen steps).
TEST(SimContinue, StopOnDriftStopsAfterACheckpoint) {
  test::TempDir dir;
  SimJob job = plummer(dir / "run");
  job.scene_settings = {{"n", ParamValue{std::int64_t{64}}}, {"seed", ParamValue{std::int64_t{3}}}};
  job.dt = 0.01;
  job.t_end = 2;
  job.every = 1;
  job.checkpoint_every = 1000;
  job.stop_on_drift = true;
  try {
    run_simulation(job);
    FAIL() << "did not stop";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("stopped by --stop-on-drift"), std::string::npos)
        << e.what();
  }
  const std::int64_t stop = run_snapshots(dir / "run").back();
  EXPECT_LT(stop, 200);
  EXPECT_EQ(run_checkpoints(dir / "run"), (std::vector<std::int64_t>{0, stop}));
  h5::Handle f = h5::open_file(snapshot_path(dir / "run", stop).string());
  EXPECT_EQ(h5::read_attribute(f.id(), "drift_warning").reals.at(1), static_cast<double>(stop));
  // The drift is past the limit already: a resume goes on without stopping again.
  SimJob rest;
  rest.resume = true;
  rest.out = job.out;
  rest.stop_on_drift = true;
  rest.threads = 1;
  EXPECT_EQ(run_simulation(rest).time, 2.0);
}

}  // namespace
}  // namespace orrery
