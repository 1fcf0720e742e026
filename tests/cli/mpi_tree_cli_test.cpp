// SPDX-License-Identifier: MIT
// `orrery forces` and `orrery sim` with --engine tree over the ranks of an MPI job
// (docs/guide/mpi.md, src/dist/tree_over_ranks.cpp), run as a user runs them, under
// `mpirun -np R` for R = 1, 2 and 4 on this one host (and `forces --engine direct` under 2
// ranks, one process's bits): the accelerations of a Plummer sphere and
// of a clumpy system (two spheres far apart, so that the domains and their essential trees are
// anything but one ball) against the direct sum in fp64 within the bounds the tree promises
// (nbody/tree_accuracy.hpp) at every R; two runs with the same ranks the same bits (forces and
// every snapshot of a run); a run whose every rank is killed under 2 ranks resumed under 1 and 4
// from its checkpoint, its snapshots up to the kill those of the uninterrupted run and its end
// within the tree's error of it. Skipped where this build has no MPI or the machine no mpirun.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "h5_datasets.hpp"
#include "mpirun.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/nbody/tree_accuracy.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

// The median error the tree is asked for (--accuracy): forces then promise a median within it
// and a 99th percentile within kTreeAccuracyTail times it, whatever the number of ranks.
constexpr double kTreeAccuracyAsked = 1e-3;

// A Plummer sphere of n bodies of unit total mass around (cx, 0, 0), at rest (only the forces
// are compared): radii from the inverted cumulative mass, r = (u^(−2/3) − 1)^(−1/2), with the
// outer 1 % of the mass left out (S. J. Aarseth, M. Hénon & R. Wielen, A&A 37, 183, 1974).
void write_plummer_bodies(std::ofstream& csv, std::mt19937_64& rng, int n, double cx) {
  std::uniform_real_distribution<double> u(0.0, 0.99), c(-1.0, 1.0), turn(0.0, 2 * M_PI);
  for (int i = 0; i < n; ++i) {
    const double r = 1.0 / std::sqrt(std::pow(u(rng) + 1e-12, -2.0 / 3.0) - 1.0);
    const double cos_t = c(rng), phi = turn(rng), sin_t = std::sqrt(1 - cos_t * cos_t);
    csv << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},0,0,0\n", 1.0 / n,
                       cx + r * sin_t * std::cos(phi), r * sin_t * std::sin(phi), r * cos_t);
  }
}

// `spheres` Plummer spheres of n bodies each, 20 scale radii apart.
fs::path write_spheres(const fs::path& dir, const std::string& name, int spheres, int n) {
  const fs::path path = dir / name;
  std::ofstream csv(path);
  csv << "m,x,y,z,vx,vy,vz\n";
  std::mt19937_64 rng(2026);
  for (int s = 0; s < spheres; ++s) write_plummer_bodies(csv, rng, n, 20.0 * s);
  return path;
}

std::vector<double> accelerations_in(const fs::path& forces) {
  const std::string bytes = test::datasets_of(forces).at("acceleration");
  std::vector<double> a(bytes.size() / sizeof(double));
  std::memcpy(a.data(), bytes.data(), bytes.size());
  return a;
}

// The relative errors |a − a_direct| / |a_direct|, sorted.
std::vector<double> sorted_errors(const fs::path& tree, const fs::path& direct) {
  const std::vector<double> a = accelerations_in(tree), want = accelerations_in(direct);
  EXPECT_EQ(a.size(), want.size());
  std::vector<double> e;
  for (std::size_t i = 0; i + 2 < std::min(a.size(), want.size()); i += 3) {
    double d2 = 0, w2 = 0;
    for (std::size_t k = 0; k < 3; ++k)
      d2 += (a[i + k] - want[i + k]) * (a[i + k] - want[i + k]), w2 += want[i + k] * want[i + k];
    e.push_back(std::sqrt(d2 / w2));
  }
  std::sort(e.begin(), e.end());
  return e;
}

std::vector<std::string> tree_forces(const fs::path& input, const std::string& out) {
  return {"forces",    "--input",   input.string(), "--engine",   "tree",
          "--accuracy", fmt::format("{}", kTreeAccuracyAsked), "--backend", "cpu",
          "--threads", "1",         "--out",        out};
}

TEST(MpiTreeCli, ForcesOverRanksMeetTheTreesAccuracyAndRerunsGiveTheSameBits) {
  if (const std::string why = test::mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  for (const auto& [name, spheres, n] :
       {std::tuple{"plummer.csv", 1, 3000}, std::tuple{"two-spheres.csv", 2, 1500}}) {
    const fs::path input = write_spheres(dir.path(), name, spheres, n);
    const std::string stem = fs::path(name).stem().string() + "-";
    const auto direct =
        test::run_cli({"forces", "--input", input.string(), "--engine", "direct", "--backend",
                       "cpu", "--out", stem + "direct.h5"},
                      dir.path());
    ASSERT_EQ(direct.status, 0) << direct.err;
    // The direct sum over ranks is one process's, bit for bit (dist/bodies_over_ranks.hpp).
    const auto direct_2 =
        test::run_cli({"forces", "--input", input.string(), "--engine", "direct", "--backend",
                       "cpu", "--out", stem + "direct-2.h5"},
                      dir.path(), test::mpirun(2));
    ASSERT_EQ(direct_2.status, 0) << direct_2.err;
    for (const std::string set : {"acceleration", "potential"})
      EXPECT_TRUE(test::datasets_of(dir / (stem + "direct.h5")).at(set) ==
                  test::datasets_of(dir / (stem + "direct-2.h5")).at(set))
          << name << " " << set;
    // One process, then 1, 2 and 4 ranks, and 2 and 4 ranks again, at once.
    const std::vector<std::pair<std::string, int>> runs = {
        {"alone", 0}, {"r1", 1}, {"r2", 2}, {"r4", 4}, {"r2-again", 2}, {"r4-again", 4}};
    std::vector<std::future<test::CliResult>> started;
    for (const auto& [label, ranks] : runs) {
      const std::string prefix = ranks ? test::mpirun(ranks) : "";
      started.push_back(std::async(std::launch::async, [&, label = label, prefix] {
        return test::run_cli(tree_forces(input, stem + label + ".h5"), dir.path(), prefix);
      }));
    }
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const auto r = started[k].get();
      ASSERT_EQ(r.status, 0) << name << " " << runs[k].first << ": " << r.err;
    }
    for (const auto& [label, ranks] : runs) {
      const std::vector<double> e =
          sorted_errors(dir / (stem + label + ".h5"), dir / (stem + "direct.h5"));
      ASSERT_EQ(e.size(), static_cast<std::size_t>(spheres * n));
      const double median = e[e.size() / 2], p99 = e[e.size() * 99 / 100];
      EXPECT_LE(median, kTreeAccuracyAsked) << name << " " << label;
      EXPECT_LE(p99, kTreeAccuracyTail * kTreeAccuracyAsked) << name << " " << label;
      std::printf("%s %s: median %.3g p99 %.3g\n", name, label.c_str(), median, p99);
    }
    for (const std::string ranks : {"r2", "r4"})
      EXPECT_TRUE(test::datasets_of(dir / (stem + ranks + ".h5")) ==
                  test::datasets_of(dir / (stem + ranks + "-again.h5")))
          << name << ": two runs with " << ranks << " differ";
  }
}

std::vector<std::string> tree_run(const std::string& t_end, const std::string& out) {
  return {"sim",         "--scene",   "plummer",  "--n",       "400",     "--seed", "5",
          "--engine",    "tree",      "--theta",  "0.5",       "--dt",    "0.01",   "--t-end",
          t_end,         "--every",   "5",        "--integrator", "leapfrog", "--backend", "cpu",
          "--threads",   "1",         "--checkpoint-every", "5", "--out", out};
}

std::vector<double> positions_in(const fs::path& snapshot) {
  const std::string bytes = test::datasets_of(snapshot).at("position");
  std::vector<double> x(bytes.size() / sizeof(double));
  std::memcpy(x.data(), bytes.data(), bytes.size());
  return x;
}

TEST(MpiTreeCli, RunsOverRanksRerunTheSameBitsAndResumeUnderOtherRankCounts) {
  if (const std::string why = test::mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  // The whole run under 2 and 4 ranks, twice each, at once.
  std::vector<std::future<test::CliResult>> started;
  const std::vector<std::pair<std::string, int>> runs = {
      {"two", 2}, {"two-again", 2}, {"four", 4}, {"four-again", 4}};
  for (const auto& [folder, ranks] : runs) {
    fs::create_directories(dir / folder);
    started.push_back(std::async(std::launch::async, [&, folder = folder, ranks = ranks] {
      return test::run_cli(tree_run("1", "run"), dir / folder, test::mpirun(ranks));
    }));
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto r = started[k].get();
    ASSERT_EQ(r.status, 0) << runs[k].first << ": " << r.err;
  }
  for (const std::string folder : {"two", "four"}) {
    const auto want = test::run_outputs(dir / folder / "run");
    const auto got = test::run_outputs(dir / (folder + "-again") / "run");
    ASSERT_GT(want.size(), 10u);
    ASSERT_EQ(got.size(), want.size());
    for (const auto& [name, bytes] : want) {
      if (name.rfind("snapshot_", 0) == 0) {
        EXPECT_TRUE(got.at(name) == bytes) << folder << " " << name;
      }
    }
  }

  // Under 2 ranks in the background, every rank killed from the fifth checkpoint on.
  fs::create_directories(dir / "killed");
  ASSERT_EQ(test::kill_every_rank_at_checkpoint(dir / "killed", 2, tree_run("1", "run"), 25), 2u)
      << "the run ended before the kill (or never started): "
      << test::read_text(dir / "killed" / "err.txt");
  ASSERT_FALSE(fs::exists(dir / "killed" / "run" / "snapshot_000020.h5")) << "not killed";

  const auto whole = test::run_outputs(dir / "two" / "run");
  for (const int resumed_by : {1, 4}) {
    const std::string folder = "resumed-" + std::to_string(resumed_by);
    fs::create_directories(dir / folder);
    fs::copy(dir / "killed" / "run", dir / folder / "run", fs::copy_options::recursive);
    auto args = tree_run("1", "run");
    args.push_back("--resume");
    const auto rest = test::run_cli(args, dir / folder, test::mpirun(resumed_by));
    ASSERT_EQ(rest.status, 0) << rest.err;
    const std::string by = resumed_by > 1 ? "4 MPI ranks" : "one process";
    EXPECT_NE(rest.err.find("--resume: the checkpoint was written by 2 MPI ranks and is "
                            "continued by " + by),
              std::string::npos)
        << rest.err;
    // Before the checkpoint, the bits of the uninterrupted run with 2 ranks (the snapshot at it
    // may be written again on resume, with the resumed ranks' tree potentials); after it, other
    // ranks cut other domains, so the forces differ within the tree's error and so do the
    // orbits, by far less than the bodies' spacing in one time unit.
    const auto got = test::run_outputs(dir / folder / "run");
    ASSERT_EQ(got.size(), whole.size()) << folder;
    const std::int64_t resumed_at = run_checkpoints(dir / "killed" / "run").back();
    for (std::int64_t s = 0; s < resumed_at / 5; ++s) {
      const std::string name = fmt::format("snapshot_{:06d}.h5", s);
      EXPECT_TRUE(got.at(name) == whole.at(name)) << folder << " " << name;
    }
    const std::vector<double> end = positions_in(dir / folder / "run" / "snapshot_000020.h5");
    const std::vector<double> want = positions_in(dir / "two" / "run" / "snapshot_000020.h5");
    ASSERT_EQ(end.size(), want.size());
    double most = 0;
    for (std::size_t i = 0; i < end.size(); ++i) most = std::max(most, std::abs(end[i] - want[i]));
    EXPECT_LT(most, 1e-3) << folder;
    EXPECT_GT(most, 0.0) << folder << ": the same bits as 2 ranks (the decomposition unused?)";
  }
}

}  // namespace
}  // namespace orrery
