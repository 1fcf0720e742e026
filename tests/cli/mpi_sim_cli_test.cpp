// SPDX-License-Identifier: MIT
// `orrery sim --engine direct` over the ranks of an MPI job (docs/guide/mpi.md,
// dist/bodies_over_ranks.hpp), run as a user runs it: under `mpirun -np R` for R = 1, 2 and 4 on
// this one host, the run of one process without mpirun — every snapshot and the diagnostics
// table the same bytes (the energies bit for bit), what rank 0 prints the same words, the
// checkpoints the same values — with a method of each family that runs over ranks (splitting
// with kept accelerations, Runge–Kutta with step control, Adams–Bashforth with its history,
// Bulirsch–Stoer) and in fp32 and fp128; a run whose every rank is killed (SIGKILL) under 2
// ranks, resumed under 1 and under 4, ends as the uninterrupted run of one process and says
// that the number of ranks changed; what cannot run over ranks refused once, naming the flag
// (the tree on GPUs: the tree over ranks, tests/cli/mpi_tree_cli_test.cpp, runs on the CPUs).
// Skipped where this build has no MPI or the machine no mpirun.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "h5_datasets.hpp"
#include "mpirun.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

// A Plummer sphere of `bodies` (uneven slices over 4 ranks where not a multiple of 4).
std::vector<std::string> plummer_run(const std::string& integrator, const std::string& precision,
                                     const std::string& bodies, const std::string& t_end) {
  return {"sim",         "--scene",     "plummer", "--n",       bodies,     "--seed",
          "3",           "--dt",        "0.01",    "--t-end",   t_end,      "--every",
          "5",           "--integrator", integrator, "--precision", precision, "--threads",
          "1",           "--backend",   "cpu",     "--out",     "run"};
}

// Snapshots and the diagnostics table byte for byte; checkpoints value for value (a checkpoint
// records the ranks that wrote it).
void expect_same_run(const fs::path& got, const fs::path& want, const std::string& what) {
  const auto want_files = test::run_outputs(want);
  const auto got_files = test::run_outputs(got);
  ASSERT_EQ(got_files.size(), want_files.size()) << what;
  ASSERT_GT(want_files.size(), 2u) << what;
  for (const auto& [name, bytes] : want_files) {
    ASSERT_TRUE(got_files.count(name)) << what << ": " << name;
    if (name.rfind("checkpoint_", 0) == 0)
      EXPECT_EQ(test::datasets_of(got / name), test::datasets_of(want / name))
          << what << ": " << name;
    else
      EXPECT_TRUE(got_files.at(name) == bytes) << what << ": " << name << " differs";
  }
}

// The run of `args` without mpirun and under mpirun with 1, 2 and 4 ranks, at once.
void expect_the_same_run_over_ranks(const std::vector<std::string>& args) {
  if (const std::string why = test::mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"alone", ""}, {"ranks-1", test::mpirun(1)}, {"ranks-2", test::mpirun(2)},
      {"ranks-4", test::mpirun(4)}};
  std::vector<std::future<test::CliResult>> started;
  for (const auto& [folder, prefix] : runs) {
    fs::create_directories(dir / folder);
    started.push_back(std::async(std::launch::async, [&, folder = folder, prefix = prefix] {
      return test::run_cli(args, dir / folder, prefix);
    }));
  }
  std::vector<test::CliResult> results;
  for (auto& f : started) results.push_back(f.get());
  for (std::size_t k = 0; k < runs.size(); ++k)
    ASSERT_EQ(results[k].status, 0) << runs[k].first << ": " << results[k].err;
  ASSERT_FALSE(results[0].out.empty());
  for (std::size_t k = 1; k < runs.size(); ++k) {
    const std::string& folder = runs[k].first;
    // The diagnostics table rank 0 prints: the energies of one process, digit for digit.
    EXPECT_EQ(results[k].out, results[0].out) << folder;
    expect_same_run(dir / folder / "run", dir / "alone" / "run", args[13] + " " + folder);
    EXPECT_EQ(test::listing(dir / folder / "run"), test::listing(dir / "alone" / "run")) << folder;
  }
}

TEST(MpiSimCli, LeapfrogOverRanksIsTheRunOfOneProcess) {
  // 37 bodies: slices of 9 and 10 over 4 ranks.
  expect_the_same_run_over_ranks(plummer_run("leapfrog", "fp64", "37", "0.3"));
}

TEST(MpiSimCli, StepControlOverRanksTakesTheStepsOfOneProcess) {
  // The maximum norm of the error estimate over the ranks: the same accepted and rejected steps.
  auto args = plummer_run("dopri5", "fp64", "30", "0.3");
  args.insert(args.end(), {"--tolerance", "1e-9"});
  expect_the_same_run_over_ranks(args);
}

TEST(MpiSimCli, MultistepHistoryAndExtrapolationOverRanksAreThoseOfOneProcess) {
  expect_the_same_run_over_ranks(plummer_run("ab4", "fp64", "21", "0.3"));
  auto args = plummer_run("bulirsch-stoer", "fp64", "13", "0.2");
  args.insert(args.end(), {"--tolerance", "1e-10"});
  expect_the_same_run_over_ranks(args);
}

TEST(MpiSimCli, SinglesAndQuadruplesOverRanksAreThoseOfOneProcess) {
  expect_the_same_run_over_ranks(plummer_run("yoshida4", "fp32", "25", "0.2"));
  expect_the_same_run_over_ranks(plummer_run("rk4", "fp128", "9", "0.1"));
}

TEST(MpiSimCli, RunKilledUnderTwoRanksResumesUnderOneAndFourAsOneProcessRunsIt) {
  if (const std::string why = test::mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  auto args = plummer_run("leapfrog", "fp64", "64", "6");
  args.insert(args.end() - 2, {"--checkpoint-every", "5"});  // before --out, the last
  const auto with_out = [&](const std::string& out, bool resume) {
    auto a = args;
    a.back() = out;
    if (resume) a.push_back("--resume");
    return a;
  };
  fs::create_directories(dir / "alone");
  const auto whole = test::run_cli(with_out("whole", false), dir / "alone");
  ASSERT_EQ(whole.status, 0) << whole.err;

  // Under 2 ranks, in the background; every rank killed at once from the third checkpoint on (a
  // host lost: no rank gets to say anything).
  fs::create_directories(dir / "killed");
  ASSERT_EQ(test::kill_every_rank_at_checkpoint(dir / "killed", 2, with_out("run", false), 15), 2u)
      << "the run ended before the kill (or never started): "
      << test::read_text(dir / "killed" / "err.txt");
  ASSERT_FALSE(fs::exists(dir / "killed" / "run" / "snapshot_000120.h5")) << "not killed";

  // Resumed under 1 and under 4 ranks, each from its own copy of what the kill left.
  for (const int resumed_by : {1, 4}) {
    const std::string folder = "resumed-" + std::to_string(resumed_by);
    fs::create_directories(dir / folder);
    fs::copy(dir / "killed" / "run", dir / folder / "run", fs::copy_options::recursive);
    const auto rest =
        test::run_cli(with_out("run", true), dir / folder, test::mpirun(resumed_by));
    ASSERT_EQ(rest.status, 0) << rest.err;
    const std::string by = resumed_by > 1 ? "4 MPI ranks" : "one process";
    EXPECT_NE(rest.err.find("--resume: the checkpoint was written by 2 MPI ranks and is "
                            "continued by " + by),
              std::string::npos)
        << rest.err;
    expect_same_run(dir / folder / "run", dir / "alone" / "whole", folder);
  }
}

TEST(MpiSimCli, WhatCannotRunOverRanksIsRefusedOnceNamingTheFlag) {
  if (const std::string why = test::mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  struct Refused {
    std::vector<std::string> change;
    std::string said;
  };
  const std::vector<Refused> cases = {
      {{"--engine", "tree", "--backend", "cuda"}, "--backend"},
      {{"--integrator", "ias15"}, "--integrator"},
      {{"--n", "3"}, "3 bodies over 4 ranks"}};
  for (const Refused& c : cases) {
    auto args = plummer_run("leapfrog", "fp64", "16", "0.1");
    for (std::size_t k = 0; k + 1 < args.size(); ++k)
      for (std::size_t j = 0; j + 1 < c.change.size(); j += 2)
        if (args[k] == c.change[j]) args[k + 1] = c.change[j + 1];
    if (c.change[0] == "--engine") args.insert(args.end(), c.change.begin(), c.change.begin() + 2);
    const auto r = test::run_cli(args, dir.path(), test::mpirun(4));
    EXPECT_EQ(r.status, 2) << c.said << ": " << r.err;
    const auto first = r.err.find(c.said);
    ASSERT_NE(first, std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("orrery sim", r.err.find("orrery sim") + 1), std::string::npos)
        << "said once: " << r.err;
    EXPECT_FALSE(fs::exists(dir / "run"));
  }
}

}  // namespace
}  // namespace orrery
