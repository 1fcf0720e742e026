// SPDX-License-Identifier: MIT
// A run that would never end, or fill the disk, is refused before its first step.
#include <gtest/gtest.h>

#include <string>

#include "orrery/core/error.hpp"
#include "orrery/jobs/run_limits.hpp"
#include "temp_dir.hpp"

namespace orrery {
namespace {

std::string refusal(const SimJob& job, std::int64_t particles, double dt, double t_end,
                    std::int64_t every) {
  try {
    check_run_limits(job, particles, 0.0, dt, t_end, every);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RunLimits, AcceptsAnOrdinaryRun) {
  test::TempDir dir;
  SimJob job;
  job.scene = "kepler";
  job.out = (dir / "run.h5").string();
  EXPECT_EQ(refusal(job, 2, 0.01, 10.0, 10), "");
  EXPECT_EQ(refusal(job, 2, 1.0, kMaxRunSteps, 0), "") << "exactly the limit";
}

TEST(RunLimits, RefusesTooManyStepsNamingWhatChoseThem) {
  test::TempDir dir;
  SimJob job;
  job.scene = "kepler";
  job.out = (dir / "run.h5").string();
  job.t_end = 1e300;  // given; the step is the scene's
  EXPECT_NE(refusal(job, 2, 1e-3, 1e300, 1).find("--t-end: 1e+300 is not accepted (expected a "
                                                 "time that dt = 0.001 (the step of kepler)"),
            std::string::npos)
      << refusal(job, 2, 1e-3, 1e300, 1);
  job.dt = 1e-300;  // given
  EXPECT_EQ(refusal(job, 2, 1e-300, 1e300, 1).rfind("--dt: 1e-300 is not accepted", 0), 0u);
  SimJob scene_only;  // neither given: the scene chose both (kepler at e -> 1)
  scene_only.scene = "kepler";
  scene_only.out = job.out;
  EXPECT_NE(refusal(scene_only, 2, 1e-17, 30.0, 0).find("--dt: 1e-17 (the step of kepler)"),
            std::string::npos)
      << refusal(scene_only, 2, 1e-17, 30.0, 0);
  EXPECT_NE(refusal(job, 2, 0.5, kMaxRunSteps + 1, 0), "") << "one step over the limit";
}

TEST(RunLimits, RefusesTooManySnapshotsOrMoreThanTheDiskHolds) {
  test::TempDir dir;
  SimJob job;
  job.scene = "plummer";
  job.out = (dir / "run.h5").string();
  EXPECT_NE(refusal(job, 2, 1.0, 2e6, 1).find("--every: 1 (2e+06 snapshots)"), std::string::npos);
  job.every_time = 1e-3;
  EXPECT_NE(refusal(job, 2, 1.0, 1e4, 0).find("--every-time: 0.001"), std::string::npos);
  job.every_time = 0;
  // Ten million particles, a snapshot per step for a million steps: some 700 TB.
  const std::string disk = refusal(job, 10'000'000, 1.0, 999'998, 1);
  EXPECT_NE(disk.find("snapshots of 10000000 particles need about"), std::string::npos) << disk;
  EXPECT_NE(disk.find("free"), std::string::npos) << disk;
}

}  // namespace
}  // namespace orrery
