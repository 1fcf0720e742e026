// SPDX-License-Identifier: MIT
// `orrery zoom` as a user sees it: four frames make an MP4 of four frames (ffprobe's count); a
// zoom killed with SIGKILL between frames leaves only whole frame files and, run again, ends
// with the frames of an uninterrupted zoom; Ctrl-C stops it after a frame; without ffmpeg the
// frames are written and the encoding command is given; bad values are refused before any file;
// on a GPU every frame has the CPU's counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "ffprobe_frames.hpp"
#include "orrery/device/cuda_presence.hpp"
#include "orrery/io/divergence_map_file.hpp"
#include "orrery/io/png_file.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// The map tests' sensitive window, 12 wide around (−10, 0), shrinking 8 times; `steps` and
// `critical_distance` set how long a frame takes.
std::vector<std::string> zoom_args(const std::string& name, const std::string& frames,
                                   const std::string& steps,
                                   const std::string& critical_distance = "0.02") {
  return {"zoom", "--resolution", "16", "--steps", steps, "--shift", "0.01",
          "--critical-distance", critical_distance, "--center", "-10:0", "--from-width", "12",
          "--to-width", "1.5", "--frames", frames, "--backend", "cpu", "--threads", "1",
          "--quiet", "--out", name + ".mp4", "--frames-dir", name, "--data-dir", name};
}

std::string frame_name(int k, const char* extension) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.%s", k, extension);
  return name;
}

TEST(ZoomCli, FourFramesMakeAMovieOfFourFrames) {
  test::TempDir dir;
  const auto r = run_cli(zoom_args("z", "4", "300"), dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(read_png(dir / "z" / frame_name(k, "png")).width, 16) << k;
    EXPECT_EQ(read_divergence_map_file(dir / "z" / frame_name(k, "h5")).map.counts.size(), 256u);
  }
  if (!test::have_ffprobe()) GTEST_SKIP() << "no ffprobe here";
  EXPECT_EQ(test::ffprobe_frames(dir / "z.mp4"), "h264,16,16,4\n");
}

// Frames of the killed and resumed zoom equal those of the uninterrupted one: the pictures byte
// for byte, the counts pixel for pixel (the HDF5 files also hold the run's wall time).
void expect_same_frames(const std::filesystem::path& whole, const std::filesystem::path& got,
                        int frames) {
  for (int k = 0; k < frames; ++k) {
    const std::string png = frame_name(k, "png"), h5 = frame_name(k, "h5");
    ASSERT_TRUE(std::filesystem::exists(got / png)) << png;
    EXPECT_TRUE(test::read_bytes(got / png) == test::read_bytes(whole / png)) << png;
    EXPECT_EQ(read_divergence_map_file(got / h5).map.counts,
              read_divergence_map_file(whole / h5).map.counts)
        << h5;
  }
}

TEST(ZoomCli, AKilledZoomResumesToTheFramesOfAnUninterruptedOne) {
  test::TempDir dir;
  constexpr int kFrames = 6;
  // Twins that separate by 0.5 take long enough (tens of milliseconds a frame) for the zoom to
  // be killed in its middle.
  const auto args = [](const std::string& name) { return zoom_args(name, "6", "20000", "0.5"); };
  // The uninterrupted zoom's frames are all that is compared: it skips the movie (no ffmpeg).
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  const auto whole = run_cli(args("whole"), dir.path());
  ::setenv("PATH", path.c_str(), 1);
  ASSERT_EQ(whole.status, 0) << whole.err;

  const pid_t pid = test::spawn_cli(args("killed"), dir.path());
  ASSERT_TRUE(test::wait_for(dir / "killed" / frame_name(1, "png")));
  ::kill(pid, SIGKILL);
  ASSERT_EQ(test::wait_cli(pid), 128 + SIGKILL);
  ASSERT_FALSE(std::filesystem::exists(dir / "killed" / frame_name(kFrames - 1, "png")))
      << "the zoom ended before the kill";
  EXPECT_FALSE(std::filesystem::exists(dir / "killed.mp4"));
  // Whatever is there under a frame's name is whole.
  int made = 0;
  while (std::filesystem::exists(dir / "killed" / frame_name(made, "png"))) ++made;
  expect_same_frames(dir / "whole", dir / "killed", made);

  const auto rest = run_cli(args("killed"), dir.path());
  ASSERT_EQ(rest.status, 0) << rest.err;
  expect_same_frames(dir / "whole", dir / "killed", kFrames);
  for (const auto& name : test::listing(dir / "killed"))
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name << " left behind";
  if (!test::have_ffprobe()) GTEST_SKIP() << "no ffprobe here";
  EXPECT_EQ(test::ffprobe_frames(dir / "killed.mp4"), "h264,16,16,6\n");
}

// Fast fp64 (no --exact): the Euler map is sharp enough that the hardware's 1/r³ moves no pixel
// of these windows, as CudaMap.FastFp64GivesTheCpuCountsOnEveryPixel finds for the map's.
TEST(ZoomCli, OnTheGpuEveryFrameHasTheCpuCounts) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  test::TempDir dir;
  auto gpu = zoom_args("gpu", "4", "2000");
  *(std::find(gpu.begin(), gpu.end(), "--backend") + 1) = "cuda";
  const auto on_gpu = run_cli(gpu, dir.path());
  ASSERT_EQ(on_gpu.status, 0) << on_gpu.err;
  const auto on_cpu = run_cli(zoom_args("cpu", "4", "2000"), dir.path());
  ASSERT_EQ(on_cpu.status, 0) << on_cpu.err;
  expect_same_frames(dir / "cpu", dir / "gpu", 4);
}

TEST(ZoomCli, CtrlCStopsAfterTheFrameBeingComputed) {
  test::TempDir dir;
  const pid_t pid = test::spawn_cli(zoom_args("z", "6", "20000", "0.5"), dir.path());
  ASSERT_TRUE(test::wait_for(dir / "z" / frame_name(0, "png")));
  ::kill(pid, SIGINT);
  ASSERT_EQ(test::wait_cli(pid), 128 + SIGINT);
  const std::string err = test::read_text(dir / ".spawn-err");
  EXPECT_NE(err.find("stopped by SIGINT"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir / "z" / frame_name(5, "png")));
  for (const auto& name : test::listing(dir / "z"))
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name << " left behind";
}

// Two zooms on one --frames-dir: the second is refused naming the first (the folder's lock),
// and the first's frames are those of a zoom alone.
TEST(ZoomCli, ASecondZoomOnOneFramesDirIsRefusedNamingTheFirst) {
  test::TempDir dir;
  const pid_t first = test::spawn_cli(zoom_args("z", "6", "20000", "0.5"), dir.path());
  ASSERT_TRUE(test::wait_for(dir / "z" / frame_name(0, "png")));
  auto second_args = zoom_args("z", "6", "20000", "0.5");
  *(std::find(second_args.begin(), second_args.end(), "--out") + 1) = "other.mp4";
  const auto second = run_cli(second_args, dir.path());
  const bool first_ran_on = !std::filesystem::exists(dir / "z.mp4");
  ::kill(first, SIGKILL);
  test::wait_cli(first);
  ASSERT_TRUE(first_ran_on) << "the first zoom ended before the second started";
  EXPECT_EQ(second.status, 1) << second.err;
  EXPECT_NE(second.err.find("in use by another orrery (pid " + std::to_string(first)),
            std::string::npos)
      << second.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "other.mp4"));
}

TEST(ZoomCli, WithoutFfmpegTheFramesAreWrittenAndTheCommandGiven) {
  test::TempDir dir;
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  const auto r = run_cli(zoom_args("z", "2", "300"), dir.path());
  ::setenv("PATH", path.c_str(), 1);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("no ffmpeg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ffmpeg -framerate 30 -i 'z/frame_%06d.png'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "z.mp4"));
  EXPECT_TRUE(std::filesystem::exists(dir / "z" / frame_name(1, "png")));
}

TEST(ZoomCli, RefusesBadValuesBeforeAnyFile) {
  test::TempDir dir;
  auto args = zoom_args("z", "4", "300");
  args.insert(args.end(), {"--to-width", "0"});
  auto r = run_cli(args, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--to-width: 0 is not accepted (expected a finite number > 0)"),
            std::string::npos)
      << r.err;
  r = run_cli({"zoom", "--frames", "0"}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--frames: 0"), std::string::npos) << r.err;
  r = run_cli({"zoom", "--x-range", "0:1"}, dir.path());
  EXPECT_EQ(r.status, 2) << "the window comes from --center and the widths";
  EXPECT_TRUE(test::listing(dir.path()).empty());
}

}  // namespace
}  // namespace orrery
