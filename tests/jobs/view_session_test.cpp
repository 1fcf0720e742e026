// SPDX-License-Identifier: MIT
// What `orrery view` shows, without a window: a live session's frames hold the very states
// `orrery sim` writes for the same job, step by step; paused it stands still and a step moves
// it once; it stops on t-end; a run's snapshots are scrubbed both ways with their energy drift.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "orrery/io/diagnostics_table.hpp"
#include "orrery/io/particle_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/jobs/view_job.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

// How long a frame of 48 bodies may take to come on a loaded machine before the test gives up.
constexpr auto kFrameWait = std::chrono::seconds(10);
// How long a paused session is watched for a frame it must not make.
constexpr auto kStillWait = std::chrono::milliseconds(50);

SimJob small_plummer() {
  SimJob job;
  job.backend = Backend::cpu;
  job.scene = "plummer";
  job.scene_settings = {{"n", ParamValue{std::int64_t{48}}}, {"seed", ParamValue{std::int64_t{7}}}};
  job.dt = 1.0 / 64;
  job.t_end = 10.5 / 64;  // ten steps and a half: the last is shortened to land on it
  job.threads = 1;
  return job;
}

bool next_frame(ViewSession& s, ViewFrame& out) {
  const auto until = std::chrono::steady_clock::now() + kFrameWait;
  while (std::chrono::steady_clock::now() < until) {
    if (s.take(out)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// The snapshot's positions as a view frame holds them.
std::vector<float> frame_positions(const std::filesystem::path& run, std::int64_t index,
                                   const Vec3d& centre) {
  const Particles<double> p = read_particle_hdf5(snapshot_path(run, index)).particles;
  std::vector<float> out;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (double v : {p.x[i] - centre.x, p.y[i] - centre.y, p.z[i] - centre.z})
      out.push_back(static_cast<float>(v));
  return out;
}

class ViewSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SimJob sim = small_plummer();
    sim.every = 1;
    sim.out = (dir / "run").string();
    run_simulation(sim);
  }
  test::TempDir dir;
};

TEST_F(ViewSessionTest, ALiveSessionShowsEachStateSimWrites) {
  ViewJob job;
  job.sim = small_plummer();
  ViewSession s(job);
  const auto run = dir / "run";
  const auto snapshots = run_snapshots(run);
  ASSERT_EQ(snapshots.size(), 12u);  // the start, ten steps, the landing on t-end
  for (std::int64_t k : snapshots) {
    ViewFrame f;
    ASSERT_TRUE(next_frame(s, f)) << k;
    EXPECT_EQ(f.index, k);
    EXPECT_EQ(f.bodies, 48u);
    EXPECT_EQ(f.position, frame_positions(run, k, s.look().centre)) << "step " << k;
  }
  EXPECT_TRUE(s.paused());  // on t-end
  ViewFrame last;
  EXPECT_FALSE(s.take(last));
}

// The drift a live frame carries is of a state that has left the start (the start's own drift
// is 0 and was shown as the drift for the first second), and says which state's it is.
TEST_F(ViewSessionTest, ALiveFrameCarriesTheDriftOfAStateAfterTheStart) {
  ViewJob job;
  job.sim = small_plummer();
  job.paused = true;
  ViewSession s(job);
  ViewFrame f;
  ASSERT_TRUE(s.take(f));
  EXPECT_EQ(f.energy_drift, 0.0);
  EXPECT_EQ(f.energy_drift_time, 0.0);
  s.step(+1);
  ASSERT_TRUE(next_frame(s, f));
  ASSERT_EQ(f.index, 1);
  EXPECT_EQ(f.energy_drift_time, f.time);
  EXPECT_GT(f.energy_drift, 0.0);
}

TEST_F(ViewSessionTest, PausedItStandsStillAndAStepMovesItOnce) {
  ViewJob job;
  job.sim = small_plummer();
  job.paused = true;
  job.speed = 4;
  ViewSession s(job);
  ViewFrame f;
  ASSERT_TRUE(s.take(f));
  EXPECT_EQ(f.index, 0);
  std::this_thread::sleep_for(kStillWait);
  EXPECT_FALSE(s.take(f));
  s.step(+1);
  ASSERT_TRUE(next_frame(s, f));
  EXPECT_EQ(f.index, 1);  // one step, whatever the speed
  s.step(-1);  // a live run does not go back
  std::this_thread::sleep_for(kStillWait);
  EXPECT_FALSE(s.take(f));
}

TEST_F(ViewSessionTest, ARunIsScrubbedBothWaysWithItsEnergyDrift) {
  ViewJob job;
  job.run = (dir / "run").string();
  job.paused = true;
  ViewSession s(job);
  const auto rows = run_diagnostics(dir / "run");
  const auto drift = diagnostics_column(rows, "drift_energy");
  ViewFrame f;
  ASSERT_TRUE(s.take(f));
  EXPECT_EQ(f.index, 0);
  s.step(+1);
  s.step(+1);
  ASSERT_TRUE(next_frame(s, f));
  if (f.index == 1) {  // the two steps may come as two frames
    ASSERT_TRUE(next_frame(s, f));
  }
  EXPECT_EQ(f.index, 2);
  EXPECT_EQ(f.energy_drift, drift[2]);
  EXPECT_GT(f.energy_drift, 0.0);
  s.step(-1);
  ASSERT_TRUE(next_frame(s, f));
  EXPECT_EQ(f.index, 1);
  EXPECT_EQ(f.position, frame_positions(dir / "run", 1, s.look().centre));
  EXPECT_FALSE(s.live());
}

}  // namespace
}  // namespace orrery
