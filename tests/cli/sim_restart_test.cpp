// SPDX-License-Identifier: MIT
// Restarting `orrery sim` runs: one writer per run, a damaged checkpoint never resumed from,
// Ctrl-C stops after a checkpoint, and the original command line with --resume continues.
#include <gtest/gtest.h>

#include <algorithm>

#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

std::vector<std::string> with(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

const std::vector<std::string> kLongRun = {"sim",      "--scene", "plummer", "--n",  "64",
                                           "--seed",   "3",       "--dt",    "0.01", "--t-end",
                                           "3",        "--every", "1",       "--threads", "1",
                                           "--quiet"};

TEST(SimRestart, ASecondWriterIsRefusedNamingTheFirst) {
  test::TempDir dir;
  const pid_t first = test::spawn_cli(with(kLongRun, {"--out", "run"}), dir.path());
  ASSERT_TRUE(test::wait_for(dir / "run" / "snapshot_000002.h5"));
  const auto second = run_cli(with(kLongRun, {"--out", "run", "--resume"}), dir.path());
  const auto again = run_cli(with(kLongRun, {"--out", "run"}), dir.path());
  ::kill(first, SIGKILL);
  test::wait_cli(first);
  EXPECT_EQ(second.status, 1) << second.err;
  EXPECT_NE(second.err.find("in use by another orrery (pid " + std::to_string(first) + " on host"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(again.status, 2) << again.err;  // a new run on an existing name
  EXPECT_NE(again.err.find("--out: run"), std::string::npos) << again.err;
  // The holder gone, the lock goes with it.
  const auto after = run_cli(with(kLongRun, {"--out", "run", "--resume", "--stop-after", "1"}),
                            dir.path());
  EXPECT_EQ(after.status, 0) << after.err;
}

// A bit flipped anywhere in the newest checkpoint: the resume either refuses or falls back to the
// older checkpoint and says so; whenever it runs, it ends bit-identical to the uninterrupted run.
TEST(SimRestart, AFlippedBitInTheNewestCheckpointIsNeverResumedFrom) {
  test::TempDir dir;
  const std::vector<std::string> run = {"sim", "--scene", "plummer", "--n", "8", "--seed", "1",
                                        "--dt", "0.01", "--t-end", "0.3", "--every", "1",
                                        "--threads", "1", "--quiet"};
  ASSERT_EQ(run_cli(with(run, {"--out", "whole"}), dir.path()).status, 0);
  ASSERT_EQ(run_cli(with(run, {"--out", "stopped", "--stop-after", "12"}), dir.path()).status, 0);
  const auto newest = checkpoint_path(dir / "stopped", 12);
  const std::string pristine = test::read_bytes(newest);
  const auto expected = test::run_outputs(dir / "whole");
  constexpr int kFlips = 64;
  int refused = 0, fell_back = 0, unharmed = 0;
  for (int k = 0; k < kFlips; ++k) {
    const std::size_t byte = (pristine.size() - 1) * static_cast<std::size_t>(k) / (kFlips - 1);
    std::filesystem::remove_all(dir / "flipped");
    std::filesystem::copy(dir / "stopped", dir / "flipped");
    std::string damaged = pristine;
    damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << (k % 8)));
    std::ofstream(checkpoint_path(dir / "flipped", 12), std::ios::binary | std::ios::trunc)
        << damaged;
    const auto r = run_cli(with(run, {"--out", "flipped", "--resume"}), dir.path());
    if (r.status != 0) {
      EXPECT_TRUE(r.status == 1 || r.status == 2) << "byte " << byte << ": " << r.err;
      EXPECT_NE(r.err.find("checkpoint"), std::string::npos) << r.err;
      ++refused;
      continue;
    }
    if (r.err.find("older") != std::string::npos) {
      EXPECT_NE(r.err.find("damaged"), std::string::npos) << r.err;
      ++fell_back;
    } else {
      ++unharmed;  // a bit no value depends on (padding, free space)
    }
    auto got = test::run_outputs(dir / "flipped");
    EXPECT_TRUE(got == expected) << "byte " << byte << " bit " << k % 8
                                 << ": resumed to another result; stderr: " << r.err;
  }
  std::printf("[          ] %d flips: %d fell back to the older checkpoint, %d refused, %d in "
              "unused bytes\n",
              kFlips, fell_back, refused, unharmed);
  // Most of a small HDF5 file is headers' slack; enough flips land in values and metadata.
  EXPECT_GE(fell_back, kFlips / 8);
}

// Ctrl-C: the run checkpoints and stops (status 130); a second Ctrl-C stops at once. Either way
// --resume ends bit-identical to the uninterrupted run.
TEST(SimRestart, CtrlCCheckpointsAndTheRunResumesBitIdentical) {
  test::TempDir dir;
  // Checkpoints only at the start, the end and where a signal stops the run.
  const auto short_run = with(kLongRun, {"--t-end", "1", "--checkpoint-every", "1000"});
  ASSERT_EQ(run_cli(with(short_run, {"--out", "whole"}), dir.path()).status, 0);
  auto snapshots_and_last_checkpoint = [](const std::filesystem::path& run) {
    auto files = test::run_outputs(run);
    files.erase(checkpoint_path(".", run_checkpoints(run).front()).filename().string());
    return files;
  };
  const auto expected = snapshots_and_last_checkpoint(dir / "whole");
  for (int signals : {1, 2}) {
    const std::string name = "interrupted-" + std::to_string(signals);
    const pid_t pid = test::spawn_cli(with(short_run, {"--out", name}), dir.path());
    ASSERT_TRUE(test::wait_for(dir / name / "snapshot_000010.h5"));
    for (int s = 0; s < signals; ++s) ::kill(pid, SIGINT);
    EXPECT_EQ(test::wait_cli(pid), 130);
    const std::string err = test::read_text(dir / ".spawn-err");
    if (signals == 1) {
      EXPECT_NE(err.find("stopped by SIGINT at t = "), std::string::npos) << err;
      EXPECT_NE(err.find("--resume"), std::string::npos) << err;
      // The checkpoint is of the step it stopped at, the last snapshot's.
      EXPECT_EQ(run_checkpoints(dir / name).back(), run_snapshots(dir / name).back());
    }
    ASSERT_LT(run_snapshots(dir / name).size(), expected.size() / 2) << "not interrupted";
    const auto rest = run_cli(with(short_run, {"--out", name, "--resume"}), dir.path());
    ASSERT_EQ(rest.status, 0) << rest.err;
    EXPECT_TRUE(snapshots_and_last_checkpoint(dir / name) == expected) << name;
  }
}

TEST(SimRestart, TheOriginalCommandLineResumesAndAChangedValueIsRefused) {
  test::TempDir dir;
  const std::vector<std::string> run = {"sim", "--scene", "plummer", "--n", "32", "--seed", "5",
                                        "--dt", "0.01", "--t-end", "0.5", "--integrator",
                                        "yoshida4", "--threads", "1", "--out", "run", "--quiet"};
  ASSERT_EQ(run_cli(with(run, {"--stop-after", "10"}), dir.path()).status, 0);
  const auto changed = run_cli(with(run, {"--resume", "--n", "33"}), dir.path());
  EXPECT_EQ(changed.status, 2);
  EXPECT_NE(changed.err.find("--n: 33"), std::string::npos) << changed.err;
  EXPECT_NE(changed.err.find("the run's own n (32)"), std::string::npos) << changed.err;
  const auto other_dt = run_cli(with(run, {"--resume", "--dt", "0.02"}), dir.path());
  EXPECT_EQ(other_dt.status, 2);
  EXPECT_NE(other_dt.err.find("--dt: 0.02"), std::string::npos) << other_dt.err;
  const auto same = run_cli(with(run, {"--resume"}), dir.path());
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(run_snapshots(dir / "run").size(), 51u);
  // Once finished, the same command line again has nothing left to do.
  const auto done = run_cli(with(run, {"--resume"}), dir.path());
  EXPECT_EQ(done.status, 0) << done.err;
}

}  // namespace
}  // namespace orrery
