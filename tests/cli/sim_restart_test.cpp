// SPDX-License-Identifier: MIT
// Restarting `orrery sim` runs: one writer per run, a damaged checkpoint never resumed from,
// Ctrl-C stops after a checkpoint, and the original command line with --resume continues.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "orrery/io/hdf5_file.hpp"
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
  const auto said = run_cli({"sim", "--out", "run", "--resume"}, dir.path());
  EXPECT_EQ(said.status, 0) << said.err;
  EXPECT_NE(said.out.find("has reached its end, t = 0.5, already: nothing to do (51 snapshots)"),
            std::string::npos)
      << said.out;
}

// A valid checkpoint of another run copied into a run (of other particles, or of another step),
// and a bit flipped in a value of run.h5 (the initial energy, from which every drift is
// measured): neither is resumed from, and the run's files stay as they were.
TEST(SimRestart, ACheckpointOfAnotherRunOrAChangedRunFileIsRefused) {
  test::TempDir dir;
  namespace fs = std::filesystem;
  auto run = [](const std::string& n, const std::string& out, const std::string& dt = "0.01") {
    return std::vector<std::string>{"sim",  "--scene", "plummer", "--n",       n,   "--seed",
                                    "2",    "--dt",    dt,        "--t-end",   "0.3", "--every",
                                    "1",    "--threads", "1",     "--quiet",   "--out", out};
  };
  ASSERT_EQ(run_cli(with(run("300", "big"), {"--stop-after", "10"}), dir.path()).status, 0);
  ASSERT_EQ(run_cli(with(run("200", "other-dt", "0.02"), {"--stop-after", "10"}), dir.path())
                .status,
            0);
  ASSERT_EQ(run_cli(with(run("200", "small"), {"--stop-after", "10"}), dir.path()).status, 0);
  for (const std::string donor : {"big", "other-dt"}) {
    fs::remove_all(dir / "target");
    fs::copy(dir / "small", dir / "target");
    fs::copy_file(checkpoint_path(dir / donor, 10), checkpoint_path(dir / "target", 10),
                  fs::copy_options::overwrite_existing);
    const auto before = test::run_outputs(dir / "target");
    const auto r = run_cli(with(run("200", "target"), {"--resume"}), dir.path());
    EXPECT_EQ(r.status, 2) << donor << ": " << r.err;
    EXPECT_NE(r.err.find("was not written by the run in 'target'"), std::string::npos) << r.err;
    EXPECT_TRUE(test::run_outputs(dir / "target") == before) << donor;
  }

  fs::remove_all(dir / "target");
  fs::copy(dir / "small", dir / "target");
  double energy = 0;
  {
    h5::Handle f = h5::open_file((dir / "target" / "run.h5").string());
    h5::Handle g = h5::open_group(f.id(), "initial_diagnostics");
    energy = h5::read_attribute(g.id(), "energy").reals.at(0);
  }
  std::string bytes = test::read_bytes(dir / "target" / "run.h5");
  std::string pattern(sizeof energy, '\0');
  std::memcpy(pattern.data(), &energy, sizeof energy);
  const std::size_t at = bytes.find(pattern);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = static_cast<char>(bytes[at] ^ 1);  // the lowest bit of the mantissa
  std::ofstream(dir / "target" / "run.h5", std::ios::binary | std::ios::trunc) << bytes;
  const auto before = test::run_outputs(dir / "target");
  const auto r = run_cli(with(run("200", "target"), {"--resume"}), dir.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("run.h5 changed or damaged"), std::string::npos) << r.err;
  EXPECT_TRUE(test::run_outputs(dir / "target") == before);
}

// --resume with --input given again: the same file however spelled continues the run; another
// file, even of the same bytes, is refused.
TEST(SimRestart, TheSameInputFileSpelledDifferentlyResumes) {
  test::TempDir dir;
  namespace fs = std::filesystem;
  fs::create_directories(dir / "inp");
  fs::create_directories(dir / "elsewhere");
  test::write_text(dir / "inp" / "good.csv",
                   "m,x,y,z,vx,vy,vz\n1,-0.5,0,0,0,-0.5,0\n1,0.5,0,0,0,0.5,0\n");
  fs::copy_file(dir / "inp" / "good.csv", dir / "inp" / "twin.csv");
  auto run = [](const std::string& input, const std::string& out) {
    return std::vector<std::string>{"sim",     "--input", input,  "--dt",      "0.01",
                                    "--t-end", "0.5",     "--out", out,        "--threads",
                                    "1",       "--quiet"};
  };
  ASSERT_EQ(run_cli(with(run("inp/good.csv", "run"), {"--stop-after", "5"}), dir.path()).status,
            0);
  const std::vector<std::pair<std::string, fs::path>> spellings = {
      {"./inp/../inp/good.csv", dir.path()},
      {(dir / "inp" / "good.csv").string(), dir.path()},
      {"../inp/good.csv", dir / "elsewhere"}};
  for (const auto& [input, cwd] : spellings) {
    const std::string out = cwd == dir.path() ? "run" : "../run";
    const auto r = run_cli(with(run(input, out), {"--resume", "--stop-after", "1"}), cwd);
    EXPECT_EQ(r.status, 0) << input << ": " << r.err;
  }
  const auto other = run_cli(with(run("inp/twin.csv", "run"), {"--resume"}), dir.path());
  EXPECT_EQ(other.status, 2) << other.err;
  EXPECT_NE(other.err.find("--input: inp/twin.csv"), std::string::npos) << other.err;
}

}  // namespace
}  // namespace orrery
