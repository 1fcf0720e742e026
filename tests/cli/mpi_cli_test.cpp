// SPDX-License-Identifier: MIT
// The jobs that run over the ranks of an MPI job (docs/guide/mpi.md), run as a user runs them:
// `mpirun -np R orrery ...` for R = 1, 2 and 4 on this one host, each giving the files that one
// process gives without mpirun (the same bytes of every picture, the same values of every
// dataset: the HDF5 files also hold each run's timings), also with more ranks than rows; bad
// input said once, with the status of one process; ranks started with other arguments, and a
// command that does not run over ranks, refused. Skipped where this build has no MPI or the
// machine no mpirun.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <map>
#include <utility>

#include "orrery/render/frame_image.hpp"
#include "h5_datasets.hpp"
#include "mpirun.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;
using test::datasets_of;
using test::mpi_missing;
using test::mpirun;
using test::run_cli;

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Tiles handed out by rank 0 as the ranks ask (dist/tile_schedule.hpp) instead of interleaved.
std::string handing_out(int ranks) { return "env ORRERY_MPI_SCHEDULE=dynamic " + mpirun(ranks); }

// Runs `args` in a folder of its own without mpirun and under mpirun with 1, 2 and 4 ranks, and
// with 2 and 4 ranks whose tiles rank 0 hands out, and expects each run's `pictures` to hold the
// same bytes and its `data` files the same datasets. The runs at once: most of an mpirun's time
// is the launcher waiting for its ranks.
void expect_the_same_files_over_ranks(std::vector<std::string> args,
                                      const std::vector<std::string>& pictures,
                                      const std::vector<std::string>& data) {
  if (const std::string why = mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"alone", ""},           {"ranks-1", mpirun(1)},         {"ranks-2", mpirun(2)},
      {"ranks-4", mpirun(4)}, {"handed-2", handing_out(2)}, {"handed-4", handing_out(4)}};
  std::vector<std::future<test::CliResult>> started;
  for (const auto& [folder, prefix] : runs) {
    fs::create_directories(dir / folder);
    started.push_back(std::async(std::launch::async, [&, folder = folder, prefix = prefix] {
      return run_cli(args, dir / folder, prefix);
    }));
  }
  std::vector<test::CliResult> results;
  for (auto& f : started) results.push_back(f.get());
  for (std::size_t k = 0; k < runs.size(); ++k)
    ASSERT_EQ(results[k].status, 0) << runs[k].first << ": " << results[k].err;
  const auto& alone = results[0];
  for (std::size_t k = 1; k < runs.size(); ++k) {
    const std::string& folder = runs[k].first;
    const std::string ranks = folder;
    const auto& r = results[k];
    EXPECT_EQ(r.out, alone.out) << "rank 0 alone speaks, and says what one process says";
    for (const auto& name : pictures) {
      const std::string want = file_bytes(dir / "alone" / name);
      ASSERT_FALSE(want.empty()) << name;
      EXPECT_TRUE(file_bytes(dir / folder / name) == want) << name << " over " << ranks << " ranks";
    }
    for (const auto& name : data) {
      const auto want = datasets_of(dir / "alone" / name);
      ASSERT_FALSE(want.empty()) << name;
      const auto got = datasets_of(dir / folder / name);
      EXPECT_EQ(got.size(), want.size()) << name;
      for (const auto& [set, bytes] : want) {
        const auto it = got.find(set);
        ASSERT_NE(it, got.end()) << name << ": " << set << " over " << ranks << " ranks";
        EXPECT_TRUE(it->second == bytes) << name << ": " << set << " over " << ranks << " ranks";
      }
    }
    // Rank 0 alone writes: no temporaries or strays beside the outputs.
    EXPECT_EQ(test::listing(dir / folder), test::listing(dir / "alone")) << ranks << " ranks";
  }
}

TEST(MpiCli, MapOverOneTwoAndFourRanksIsTheMapOfOneProcess) {
  // 21 rows: over 4 ranks, ranks of 6 and of 5 rows. 20 000 steps and a window off the x axis
  // give every row its own counts (at 4 000 steps every pixel ran to the end, and the canonical
  // window is symmetric in y), so a row put in another's place changes the bytes.
  expect_the_same_files_over_ranks({"map", "--resolution", "21", "--steps", "20000", "--y-range",
                                    "-20:16", "--backend", "cpu", "--quiet", "--out", "map.png",
                                    "--data", "map.h5"},
                                   {"map.png"}, {"map.h5"});
}

TEST(MpiCli, ZoomFramesOverRanksAreTheFramesOfOneProcess) {
  // Frames of 2 rows: over 4 ranks, two have none.
  expect_the_same_files_over_ranks(
      {"zoom", "--width", "8", "--height", "2", "--steps", "300", "--shift", "0.01",
       "--critical-distance", "0.02", "--center", "-10:0", "--from-width", "12", "--to-width", "3",
       "--frames", "2", "--backend", "cpu", "--quiet", "--out", "z.mp4", "--frames-dir", "z",
       "--data-dir", "z"},
      {"z/frame_000000.png", "z/frame_000001.png"}, {"z/frame_000000.h5", "z/frame_000001.h5"});
}

TEST(MpiCli, EnsembleOverRanksIsTheEnsembleOfOneProcess) {
  // Two runs with step control (steps and status per trajectory), drift samples (stored sample
  // by sample) and the crossings of a section.
  std::vector<std::string> args{"ensemble", "--energy", "0.125", "--plane", "y:py",
                                "--resolution", "7", "--integrator", "dopri5,tsit5",
                                "--tolerance", "1e-8", "--t-end", "20", "--dt", "0.01",
                                "--samples", "3", "--section", "x=0", "--max-crossings", "4",
                                "--backend", "cpu", "--quiet", "--out", "e.h5"};
  std::vector<std::string> pictures;
  if (can_draw_text()) {
    args.insert(args.end(), {"--plot", "e.png"});
    pictures.push_back("e.png");
  }
  expect_the_same_files_over_ranks(args, pictures, {"e.h5"});
}

TEST(MpiCli, SweptEnsembleOverRanksStartsEachTrajectoryWhereOneProcessDoes) {
  // A swept start is computed from the trajectory's place in the whole (37: uneven tiles).
  expect_the_same_files_over_ranks({"ensemble", "--problem", "lorenz", "--sweep", "rho=0:21",
                                    "--n", "37", "--integrator", "rk4", "--dt", "0.001",
                                    "--steps", "500", "--backend", "cpu", "--quiet", "--out",
                                    "l.h5"},
                                   {}, {"l.h5"});
}

TEST(MpiCli, ChaosFieldOverRanksIsTheFieldOfOneProcess) {
  std::vector<std::string> args{"chaos", "--problem", "henon-heiles", "--energy", "0.125",
                                "--plane", "y:py", "--resolution", "9", "--indicator", "megno",
                                "--dt", "0.01", "--t-end", "20", "--samples", "2",
                                "--backend", "cpu", "--quiet", "--data", "c.h5"};
  std::vector<std::string> pictures;
  if (can_draw_text()) {
    args.insert(args.end(), {"--out", "c.png"});
    pictures.push_back("c.png");
  }
  expect_the_same_files_over_ranks(args, pictures, {"c.h5"});
}

TEST(MpiCli, BadInputIsSaidOnceWithTheStatusOfOneProcess) {
  if (const std::string why = mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  const std::vector<std::string> args{"map", "--resolution", "8", "--steps", "0", "--out", "m.png"};
  const auto alone = run_cli(args, dir.path());
  ASSERT_EQ(alone.status, 2) << alone.err;
  const auto over = run_cli(args, dir.path(), mpirun(4));
  EXPECT_EQ(over.status, 2) << over.err;
  const auto first = over.err.find(alone.err);
  ASSERT_NE(first, std::string::npos) << over.err;
  EXPECT_EQ(over.err.find(alone.err, first + 1), std::string::npos) << "said once: " << over.err;
  EXPECT_FALSE(fs::exists(dir / "m.png"));
}

TEST(MpiCli, RanksStartedWithOtherArgumentsAreRefused) {
  if (const std::string why = mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  // Rank 0 asked for a map of 16 rows, rank 1 for one of 8: results that would not fit together.
  const std::string rank_0 = mpirun(1) + " '" ORRERY_CLI_PATH
                             "' map --resolution 16 --steps 10 --out m.png : -np 1";
  const auto r = run_cli({"map", "--resolution", "8", "--steps", "10", "--out", "m.png"},
                         dir.path(), rank_0);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("orrery: the 2 ranks were not started alike"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m.png"));
}

TEST(MpiCli, ACommandThatRunsAsOneProcessRefusesRanks) {
  if (const std::string why = mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  const auto r = run_cli({"render", "run", "--out", "r.mp4"}, dir.path(), mpirun(2));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("orrery render: runs as one process, not over 2 ranks"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "r.mp4"));
}

TEST(MpiCli, AScheduleOfTilesOtherThanStaticOrDynamicIsRefusedOnce) {
  if (const std::string why = mpi_missing(); !why.empty()) GTEST_SKIP() << why;
  test::TempDir dir;
  const auto r = run_cli({"map", "--resolution", "8", "--steps", "10", "--out", "m.png"},
                         dir.path(), "env ORRERY_MPI_SCHEDULE=guided " + mpirun(4));
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string said = "ORRERY_MPI_SCHEDULE=guided: static";
  const auto first = r.err.find(said);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said, first + 1), std::string::npos) << "said once: " << r.err;
  EXPECT_FALSE(fs::exists(dir / "m.png"));
}

}  // namespace
}  // namespace orrery
