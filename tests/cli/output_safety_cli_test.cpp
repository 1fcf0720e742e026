// SPDX-License-Identifier: MIT
// Outputs that cannot hurt the machine: only regular files (or new ones) are written, never an
// input, never an existing file without --overwrite, and a map's picture and data appear
// together or not at all, even when the disk fills up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

const std::vector<std::string> kSmallMap{"map", "--width", "4", "--height", "4", "--steps", "10"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

void expect_one_line_naming(const test::CliResult& r, int status, const std::string& names) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
}

// Run as root, these replaced the device node with a PNG; refused for every user now (the type
// is checked before whether the folder is writable).
TEST(OutputSafetyCli, MapRefusesDevicesAsOutputs) {
  test::TempDir dir;
  expect_one_line_naming(run_cli(with(kSmallMap, {"--out", "/dev/null"}), dir.path()), 2,
                         "--out: /dev/null is not accepted (expected a regular file or a new "
                         "path (this is a character device");
  expect_one_line_naming(
      run_cli(with(kSmallMap, {"--out", "a.png", "--data", "/dev/zero"}), dir.path()), 2,
      "--data: /dev/zero");
  EXPECT_FALSE(std::filesystem::exists(dir / "a.png"));
}

TEST(OutputSafetyCli, NoOutputMayBeTheConfigFile) {
  test::TempDir dir;
  const std::string config = "steps = 10\nwidth = 4\nheight = 4\n";
  test::write_text(dir / "p.toml", config);
  for (const auto& flags : std::vector<std::vector<std::string>>{
           {"--out", "p.toml"}, {"--out", "./p.toml", "--overwrite"},
           {"--out", "p.png", "--data", "p.toml", "--overwrite"}}) {
    const auto r = run_cli(with({"map", "--config", "p.toml"}, flags), dir.path());
    expect_one_line_naming(r, 2, "other than the --config file");
    EXPECT_EQ(test::read_text(dir / "p.toml"), config);
  }
  test::write_text(dir / "run.toml", "scene = \"kepler\"\n");
  const auto sim = run_cli({"sim", "--config", "run.toml", "--out", "run.toml", "--resume"},
                           dir.path());
  expect_one_line_naming(sim, 2, "--out: run.toml is not accepted (expected a file other than "
                                 "the --config file");
}

TEST(OutputSafetyCli, SimRefusesDevicesAndItsInputAsOutput) {
  test::TempDir dir;
  const std::string particles = "m,x,y,z,vx,vy,vz\n1,0,0,0,0,0.5,0\n1,1,0,0,0,-0.5,0\n";
  test::write_text(dir / "p.csv", particles);
  // A run is a new folder: anything that exists already, a device included, is refused.
  expect_one_line_naming(run_cli({"sim", "--scene", "kepler", "--out", "/dev/null"}, dir.path()),
                         2, "--out: /dev/null is not accepted (expected a name that does not exist");
  for (const char* out : {"p.csv", "./p.csv"}) {
    expect_one_line_naming(run_cli({"sim", "--input", "p.csv", "--out", out, "--resume"},
                                   dir.path()),
                           2, "other than the --input file 'p.csv'");
    EXPECT_EQ(test::read_text(dir / "p.csv"), particles);
  }
}

// Map and sim agree: neither replaces an existing output unless told to.
TEST(OutputSafetyCli, MapRefusesExistingOutputsWithoutOverwrite) {
  test::TempDir dir;
  test::write_text(dir / "old.png", "previous");
  test::write_text(dir / "old.h5", "previous");
  expect_one_line_naming(run_cli(with(kSmallMap, {"--out", "old.png"}), dir.path()), 2,
                         "--out: old.png is not accepted (expected a file that does not exist "
                         "yet (add --overwrite to replace it))");
  expect_one_line_naming(
      run_cli(with(kSmallMap, {"--out", "new.png", "--data", "old.h5"}), dir.path()), 2,
      "--data: old.h5");
  EXPECT_EQ(test::read_text(dir / "old.png"), "previous");
  EXPECT_FALSE(std::filesystem::exists(dir / "new.png"));
  const auto r = run_cli(with(kSmallMap, {"--out", "old.png", "--data", "old.h5", "--overwrite",
                                          "--quiet"}),
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(test::read_text(dir / "old.png"), "previous");
  EXPECT_NE(test::read_text(dir / "old.h5"), "previous");
}

// The disk fills while the map is written: a small tmpfs, mounted in a user and mount namespace
// of its own (no root needed), holds the old picture and data. The write fails with the
// system's reason and both old files stay as they were, no temporary left beside them.
TEST(OutputSafetyCli, AFullDiskLeavesTheOldPairAndSaysNoSpaceLeft) {
  test::TempDir dir;
  const std::filesystem::path disk = dir / "disk";
  std::filesystem::create_directory(disk);
  if (std::system("unshare -rm true > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "this machine allows no unprivileged user and mount namespaces "
                    "(unshare -rm), so no small filesystem can be mounted to fill up";
  test::write_text(dir / "fill.sh",
                   "mount -t tmpfs -o size=64k none disk || exit 99\n"
                   "cd disk\n"
                   "printf old-picture > p.png; printf old-data > p.h5\n"
                   "'" ORRERY_CLI_PATH "' map --resolution 200 --steps 10 --quiet --overwrite "
                   "--out p.png --data p.h5 2> ../err.txt\n"
                   "echo \"status $?\" > ../result.txt\n"
                   "cat p.png >> ../result.txt; echo >> ../result.txt\n"
                   "cat p.h5 >> ../result.txt; echo >> ../result.txt\n"
                   "ls -A >> ../result.txt\n");
  const int raw = std::system(("cd '" + dir.path().string() + "' && unshare -rm sh fill.sh").c_str());
  if (WIFEXITED(raw) && WEXITSTATUS(raw) == 99)
    GTEST_SKIP() << "unshare works but mounting a tmpfs in it is not allowed here";
  const std::string err = test::read_text(dir / "err.txt");
  EXPECT_EQ(test::read_text(dir / "result.txt"),
            "status 1\nold-picture\nold-data\np.h5\np.png\n")
      << err;
  EXPECT_NE(err.find("cannot write 'p.h5': No space left on device"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

}  // namespace
}  // namespace orrery
