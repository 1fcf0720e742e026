// SPDX-License-Identifier: MIT
// `orrery map` as a user meets it: bad input refused in one line, with exit status 2, before any
// file is created or overwritten; good input gives a picture and a data file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "orrery/ensemble/divergence_map.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

struct Bad {
  std::vector<std::string> args;
  std::string names;  // what the message must name
};

const std::string kPrevious = "previous contents";

// Each bad input: status 2, one line naming the parameter and the value, old outputs untouched,
// no new file. The case's flags come last, so they override the valid ones before them.
void expect_refused(const Bad& bad, const test::TempDir& dir) {
  test::write_text(dir / "old.png", kPrevious);
  const auto before = test::listing(dir.path());
  std::vector<std::string> args{"map", "--width", "4", "--height", "4", "--steps", "10", "--out",
                                "old.png", "--data", "new.h5"};
  args.insert(args.end(), bad.args.begin(), bad.args.end());
  const auto r = run_cli(args, dir.path());
  std::string shown;
  for (const auto& a : bad.args) shown += a + " ";
  EXPECT_EQ(r.status, 2) << shown << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << shown << "\n" << r.err;
  EXPECT_NE(r.err.find(bad.names), std::string::npos) << shown << "\n" << r.err;
  EXPECT_EQ(test::read_text(dir / "old.png"), kPrevious) << shown;
  EXPECT_EQ(test::listing(dir.path()), before) << shown << ": a file was created";
}

TEST(MapCli, RefusesBadFlags) {
  test::TempDir dir;
  const std::vector<Bad> cases{
      {{"--width", "0"}, "--width: 0"},
      {{"--width", "-4"}, "--width: -4"},
      {{"--width", "nan"}, "--width: nan"},
      {{"--height", "abc"}, "--height: abc"},
      {{"--steps", "0"}, "--steps: 0"},
      {{"--steps", "-1"}, "--steps: -1"},
      {{"--dt", "0"}, "--dt: 0"},
      {{"--dt", "-0.001"}, "--dt: -0.001"},
      {{"--dt", "nan"}, "--dt: nan"},
      {{"--dt", "inf"}, "--dt: inf"},
      {{"--critical-distance", "0"}, "--critical-distance: 0"},
      {{"--critical-distance", "-2"}, "--critical-distance: -2"},
      {{"--x-range", "3:3"}, "--x-range: 3:3"},
      {{"--y-range", "2:-2"}, "--y-range: 2:-2"},
      {{"--shift", "nan"}, "--shift: nan"},
      {{"--shift-vector", "0,inf,0"}, "--shift-vector: 0,inf,0"},
      {{"--colormap", "jet"}, "--colormap: jet"},
      {{"--precision", "fp16"}, "--precision: fp16"},
      {{"--precision", "fp128"}, "--precision: fp128"},
      {{"--backend", "cpu", "--devices", "0"}, "--devices: 0"},
      {{"--cpu-kernel", "neon"}, "--cpu-kernel: neon"},
      {{"--out", "missing-folder/map.png"}, "--out: missing-folder/map.png"},
      {{"--data", "missing-folder/map.h5"}, "--data: missing-folder/map.h5"},
      {{"--positions", "0,0,0,1,1,1,1,1,1"}, "bodies 2 and 3"},
      {{"--positions", "-10,0,0,0,0,0,10,10,12"}, "pixel (2, 2)"},
      {{"--widht", "3"}, "--widht"},
  };
  for (const auto& c : cases) expect_refused(c, dir);
}

TEST(MapCli, RefusesAnUnwritableFolder) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into any folder";
  test::TempDir dir;
  std::filesystem::create_directory(dir / "locked");
  std::filesystem::permissions(dir / "locked", std::filesystem::perms::owner_read |
                                                   std::filesystem::perms::owner_exec);
  expect_refused({{"--out", "locked/map.png"}, "not writable"}, dir);
}

TEST(MapCli, RefusesBadConfigFiles) {
  test::TempDir dir;
  test::write_text(dir / "unknown.toml", "steps = 10\nwidht = 4\n");
  test::write_text(dir / "type.toml", "steps = \"many\"\n");
  test::write_text(dir / "broken.toml", "steps = = 3\n");
  test::write_text(dir / "value.toml", "dt = -1.0\n");
  const std::vector<Bad> cases{
      {{"--config", "missing.toml"}, "--config: missing.toml"},
      {{"--config", "unknown.toml"}, "key 'widht'"},
      {{"--config", "type.toml"}, "type.toml:1 key 'steps'"},
      {{"--config", "broken.toml"}, "not valid TOML"},
      {{"--config", "value.toml"}, "value.toml:1 key 'dt': -1"},
  };
  for (const auto& c : cases) expect_refused(c, dir);
}

TEST(MapCli, FlagsOverrideTheConfigFile) {
  test::TempDir dir;
  test::write_text(dir / "c.toml", "steps = 500\nwidth = 7\nheight = 5\ncolormap = \"viridis\"\n");
  const auto r = run_cli({"map", "--config", "c.toml", "--steps", "300", "--out", "m.png",
                          "--data", "m.h5", "--quiet"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const auto stored = read_divergence_map_file(dir / "m.h5");
  EXPECT_EQ(stored.params.steps, 300);
  EXPECT_EQ(stored.params.width, 7);
  EXPECT_EQ(read_png(dir / "m.png").width, 7);
}

TEST(MapCli, WritesThePictureAndData) {
  test::TempDir dir;
  const auto r = run_cli({"map", "--width", "12", "--height", "8", "--steps", "2000", "--out",
                          "m.png", "--data", "m.h5", "--backend", "cpu"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("12x8 pixels"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "") << "no progress line when stderr is not a terminal";
  const RgbImage img = read_png(dir / "m.png");
  EXPECT_EQ(img.width, 12);
  EXPECT_EQ(img.height, 8);
  EXPECT_EQ(read_divergence_map_file(dir / "m.h5").map.counts.size(), 96u);
}

TEST(MapCli, ReportsNonFinitePixels) {
  test::TempDir dir;
  const auto r = run_cli({"map", "--resolution", "3", "--steps", "50", "--dt", "1e200", "--out",
                          "m.png", "--data", "m.h5", "--quiet"},
                         dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("9 pixel(s) produced a non-finite position"), std::string::npos) << r.err;
  const auto stored = read_divergence_map_file(dir / "m.h5");
  EXPECT_EQ(stored.map.nonfinite_pixels, 9);
  for (auto f : stored.map.nonfinite) EXPECT_EQ(f, 1);
}

TEST(MapCli, HelpNamesEveryParameterWithItsDefault) {
  test::TempDir dir;
  const auto r = run_cli({"map", "--help"}, dir.path());
  ASSERT_EQ(r.status, 0);
  for (const char* s : {"--steps N", "(default: 50000)", "--critical-distance", "(default: 0.5)",
                        "--x-range A:B", "(default: -20:20)", "--plane", "--config"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

}  // namespace
}  // namespace orrery

namespace orrery {
namespace {

TEST(MapCli, WithoutAGpuCudaIsRefusedAndAutoFallsBackWithANote) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  test::TempDir dir;
  test::write_text(dir / "old.png", "previous contents");
  const auto refused = run_cli({"map", "--resolution", "4", "--steps", "10", "--out", "old.png",
                                "--overwrite", "--backend", "cuda"},
                               dir.path());
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--backend cuda"), std::string::npos) << refused.err;
  EXPECT_EQ(test::read_text(dir / "old.png"), "previous contents");
  const auto fallback = run_cli({"map", "--resolution", "4", "--steps", "10", "--out", "m.png"},
                                dir.path());
  EXPECT_EQ(fallback.status, 0) << fallback.err;
  EXPECT_NE(fallback.err.find("note:"), std::string::npos) << fallback.err;
  EXPECT_NE(fallback.out.find("on cpu"), std::string::npos) << fallback.out;
}

}  // namespace
}  // namespace orrery
