// SPDX-License-Identifier: MIT
// What a checkpoint of `orrery sim` holds and how a resume uses it: a multistep starter's
// history, the stepper's kept state bit for bit, the ranks that wrote it, and a resume from the
// last checkpoint after a kill.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "sim_run_fixtures.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/integrate/integrator_registry.hpp"
#include "orrery/nbody/engines.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// A multistep method stopped in the middle of its starter phase resumes bit for bit: the
// checkpoint holds the history filled so far. (Stopped right after a shortened step, it resumes
// in the restart that step began: SimResume's by-time cases.)
TEST(SimRun, MultistepResumesInTheMiddleOfItsStarter) {
  for (const IntegratorInfo& info : integrators()) {
    if (info.starter_steps < 2) continue;
    const std::string name(info.name);
    test::TempDir dir;
    run_simulation(test::small_plummer(dir / "whole", name, Precision::fp64));
    SimJob first = test::small_plummer(dir / "split", name, Precision::fp64);
    first.stop_after = info.starter_steps / 2;
    ASSERT_TRUE(run_simulation(first).stopped_early) << name;
    const auto c = read_checkpoint_file<double>(
        checkpoint_path(dir / "split", run_checkpoints(dir / "split").back()));
    EXPECT_EQ(c.stepper.scalar("history_steps"), first.stop_after) << name;
    run_simulation(test::resume_of(dir / "split"));
    EXPECT_EQ(test::snapshot_bytes(dir / "whole"), test::snapshot_bytes(dir / "split")) << name;
  }
}

// The checkpoint holds the stepper's own state exactly: for leapfrog, the kept a(x) of the
// checkpoint's positions, bit for bit, in the run's precision.
template <class Real>
void expect_checkpoint_holds_kept_accelerations(Precision precision) {
  test::TempDir dir;
  SimJob job = test::small_plummer(dir / "run", "leapfrog", precision);
  job.stop_after = 5;
  run_simulation(job);
  const auto c = read_checkpoint_file<Real>(
      checkpoint_path(dir / "run", run_checkpoints(dir / "run").back()));
  h5::Handle file = h5::open_file(run_description_path(dir / "run").string());
  EXPECT_EQ(c.clock.steps, 5);
  EXPECT_EQ(c.stepper.scalar("accelerations_current"), Real(1));
  const std::vector<Real>* kept = c.stepper.find_array("accelerations");
  ASSERT_NE(kept, nullptr);
  const std::size_t n = c.particles.size();
  ASSERT_EQ(kept->size(), 3 * n);

  EngineOptions eo;
  eo.g = h5::read_attribute(file.id(), "G").reals.at(0);
  eo.softening = h5::read_attribute(file.id(), "softening").reals.at(0);
  auto engine = make_force_engine<Real>("direct", eo);
  engine->set_bodies(c.particles.mass, c.particles.softening);
  std::vector<Real> x(3 * n), a(3 * n);
  std::copy(c.particles.x.begin(), c.particles.x.end(), x.begin());
  std::copy(c.particles.y.begin(), c.particles.y.end(), x.begin() + n);
  std::copy(c.particles.z.begin(), c.particles.z.end(), x.begin() + 2 * n);
  auto xd = engine->device().allocate(3 * n), ad = engine->device().allocate(3 * n);
  engine->device().copy_to_device(x, xd);
  engine->accelerations(xd, ad);
  engine->device().copy_to_host(ad, a);
  EXPECT_EQ(std::memcmp(a.data(), kept->data(), a.size() * sizeof(Real)), 0);
}

TEST(SimRun, CheckpointHoldsTheStepperStateExactly) {
  expect_checkpoint_holds_kept_accelerations<float>(Precision::fp32);
  expect_checkpoint_holds_kept_accelerations<double>(Precision::fp64);
  expect_checkpoint_holds_kept_accelerations<float128>(Precision::fp128);
}

// A resume continues from the stepper state in the checkpoint, not from a recomputation: with
// the kept accelerations altered in the file, the resumed run departs from the uninterrupted
// one (and with them intact it equals it: SimResume).
TEST(SimRun, ResumeUsesTheCheckpointedStepperState) {
  test::TempDir dir;
  run_simulation(test::small_plummer(dir / "whole", "leapfrog", Precision::fp64));
  SimJob first = test::small_plummer(dir / "split", "leapfrog", Precision::fp64);
  first.stop_after = 37;
  run_simulation(first);
  {
    const auto path = checkpoint_path(dir / "split", run_checkpoints(dir / "split").back());
    auto c = read_checkpoint_file<double>(path);
    std::vector<double> altered = *c.stepper.find_array("accelerations");
    for (double& a : altered) a *= 2;
    c.stepper.set_array("accelerations", altered);
    write_checkpoint_file(path, c);  // the newest, with a CRC of its altered values
  }
  run_simulation(test::resume_of(dir / "split"));
  const auto whole = test::snapshot_bytes(dir / "whole");
  const auto split = test::snapshot_bytes(dir / "split");
  ASSERT_EQ(whole.size(), split.size());
  EXPECT_NE(whole, split);
}

// A checkpoint records the ranks of the MPI job that wrote it (nothing for one process), under
// its CRC; a run resumed by another number of ranks says so, and goes on bit for bit (the
// checkpoint holds the whole system whoever wrote it: docs/guide/mpi.md).
TEST(SimRun, CheckpointRecordsTheRanksThatWroteIt) {
  test::TempDir dir;
  run_simulation(test::small_plummer(dir / "whole", "leapfrog", Precision::fp64));
  SimJob first = test::small_plummer(dir / "split", "leapfrog", Precision::fp64);
  first.stop_after = 37;
  run_simulation(first);
  const auto path = checkpoint_path(dir / "split", run_checkpoints(dir / "split").back());
  {
    const h5::Handle file = h5::open_file(path.string());
    EXPECT_FALSE(h5::has_attribute(file.id(), "ranks"));
  }
  auto c = read_checkpoint_file<double>(path);
  EXPECT_EQ(c.ranks, 0);
  c.ranks = 2;  // as two ranks write it
  write_checkpoint_file(path, c);
  EXPECT_EQ(read_checkpoint_file<double>(path).ranks, 2);
  std::vector<std::string> notes;
  SimObserver observer;
  observer.note = [&](const std::string& text) { notes.push_back(text); };
  run_simulation(test::resume_of(dir / "split"), observer);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("written by 2 MPI ranks and is continued by one process"),
            std::string::npos)
      << notes[0];
  EXPECT_EQ(test::snapshot_bytes(dir / "whole"), test::snapshot_bytes(dir / "split"));
}

TEST(SimRun, ResumeAfterAKillStartsFromTheLastCheckpoint) {
  // A run stopped between checkpoints (as by a kill) has snapshots newer than its checkpoint;
  // they are recomputed, and the result equals the uninterrupted run.
  test::TempDir dir;
  run_simulation(test::small_plummer(dir / "whole", "leapfrog", Precision::fp64));
  SimJob first = test::small_plummer(dir / "split", "leapfrog", Precision::fp64);
  first.checkpoint_every = 30;  // checkpoints at 30, 60; snapshots every 10
  first.stop_after = 50;        // stops with a checkpoint at 50 ...
  run_simulation(first);
  // ... which the "kill" loses: only the older checkpoint (step 30) survives.
  ASSERT_EQ(run_checkpoints(dir / "split"), (std::vector<std::int64_t>{30, 50}));
  std::filesystem::remove(checkpoint_path(dir / "split", 50));
  run_simulation(test::resume_of(dir / "split", 30));
  EXPECT_EQ(test::snapshot_bytes(dir / "whole"), test::snapshot_bytes(dir / "split"));
}

}  // namespace
}  // namespace orrery
