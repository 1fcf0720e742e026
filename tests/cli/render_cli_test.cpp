// SPDX-License-Identifier: MIT
// `orrery render` as a user sees it: a small two-galaxy run becomes an MP4 with one frame per
// snapshot (ffprobe's count), frames that are neither blank nor saturated, and bodies that move;
// without ffmpeg the frames are written and the encoding command is given.
#include <gtest/gtest.h>

#include "orrery/render/frame_image.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>

#include "orrery/io/png_file.hpp"
#include "orrery/io/run_store.hpp"
#include "orrery/render/video_encoder.hpp"
#include "ffprobe_frames.hpp"
#include "run_cli.hpp"
#include "spawn_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// A frame is blank when almost none of its pixels holds light, saturated when many are at full
// brightness: 2000 bodies at 320×180 light a few percent of the picture, and by the brightness
// scale only the pixels as bright as the first frame's brightest reach 255.
constexpr double kLeastLitFraction = 0.005;
constexpr double kMostLitFraction = 0.6;
constexpr double kMostSaturatedFraction = 0.01;
constexpr int kLit = 24;  // a channel above this is light, not encoding noise

// Ten steps of 10⁵ years with a snapshot after each: 11 snapshots.
std::vector<std::string> galaxy_run(const std::string& out) {
  return {"sim", "--scene", "two-galaxies", "--n", "2000", "--seed", "2", "--dt", "3.15576e12",
          "--t-end", "3.15576e13", "--every", "1", "--backend", "cpu", "--quiet", "--max-drift",
          "0", "--out", out};
}

struct PixelStats {
  double lit = 0, saturated = 0;
};

// Over the rows between the overlay's lines (time at the top, scale bar at the bottom).
PixelStats stats_of(const RgbImage& image) {
  PixelStats s;
  int counted = 0;
  for (int r = image.height / 10; r < image.height * 85 / 100; ++r)
    for (int c = 0; c < image.width; ++c, ++counted) {
      const Rgb8 p = image.at(c, r);
      const int top = std::max({p.r, p.g, p.b});
      s.lit += top > kLit;
      s.saturated += top == 255;
    }
  s.lit /= counted, s.saturated /= counted;
  return s;
}

// The run the tests share, made once (test::TempDir names itself after a test, which a suite's
// set-up is not).
class RenderCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("orrery-test-RenderCli-" + std::to_string(::getpid())));
    std::filesystem::remove_all(*dir_);
    std::filesystem::create_directories(*dir_);
    made_ = run_cli(galaxy_run("galaxies"), *dir_);
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void SetUp() override { ASSERT_EQ(made_.status, 0) << made_.err; }
  static std::filesystem::path* dir_;
  static test::CliResult made_;
};
std::filesystem::path* RenderCli::dir_ = nullptr;
test::CliResult RenderCli::made_;

TEST_F(RenderCli, AMovieHasOneFramePerSnapshotNeitherBlankNorSaturated) {
  if (!test::have_ffprobe()) GTEST_SKIP() << "no ffprobe here";
  const auto r = run_cli({"render", "galaxies", "--out", "movie.mp4", "--width", "320",
                          "--height", "180", "--fps", "10", "--color-by", "group",
                          "--frames-dir", "frames"},
                         *dir_);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t snapshots = run_snapshots(*dir_ / "galaxies").size();
  ASSERT_EQ(snapshots, 11u);
  EXPECT_EQ(test::ffprobe_frames(*dir_ / "movie.mp4"), "h264,320,180,11\n");
  for (std::size_t k = 0; k < snapshots; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06zu.png", k);
    const PixelStats s = stats_of(read_png(*dir_ / "frames" / name));
    EXPECT_GT(s.lit, kLeastLitFraction) << name;
    EXPECT_LT(s.lit, kMostLitFraction) << name;
    EXPECT_LT(s.saturated, kMostSaturatedFraction) << name;
  }
  // The galaxies approach: the first and last frames differ.
  EXPECT_NE(read_png(*dir_ / "frames" / "frame_000000.png").pixels,
            read_png(*dir_ / "frames" / "frame_000010.png").pixels);
}

TEST_F(RenderCli, WithoutFfmpegTheFramesAreWrittenAndTheCommandGiven) {
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  const auto r = run_cli({"render", "galaxies", "--out", "nothing.mp4", "--width", "64",
                          "--height", "36", "--camera", "orbit"},
                         *dir_);
  ::setenv("PATH", path.c_str(), 1);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("no ffmpeg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ffmpeg -framerate 30 -i"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(*dir_ / "nothing.mp4"));
  EXPECT_TRUE(std::filesystem::exists(*dir_ / "nothing_frames" / "frame_000010.png"));
  // A build without Cairo draws the frames without their time and scale bar, and says so.
  EXPECT_EQ(r.err.find("without Cairo") != std::string::npos, !can_draw_text()) << r.err;
}

TEST_F(RenderCli, RefusesWhatItCannotDraw) {
  auto r = run_cli({"render", "galaxies", "--width", "321"}, *dir_);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--width: 321"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("even"), std::string::npos) << r.err;
  r = run_cli({"render", "no-such-run"}, *dir_);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no-such-run"), std::string::npos) << r.err;
  r = run_cli({"render", "galaxies", "--camera", "spin"}, *dir_);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("fixed, follow, orbit"), std::string::npos) << r.err;
}

// A snapshot damaged after some frames were drawn: the run failed on its way (status 1, not the
// 2 of input refused before work), said in the program's own words without HDF5's error stack.
TEST_F(RenderCli, ASnapshotDamagedMidwayEndsTheRenderWithStatusOne) {
  namespace fs = std::filesystem;
  fs::remove_all(*dir_ / "damaged");
  fs::copy(*dir_ / "galaxies", *dir_ / "damaged");
  const fs::path victim = snapshot_path(*dir_ / "damaged", 5);
  fs::resize_file(victim, fs::file_size(victim) / 2);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);  // frames as PNG files: no encoder to stop
  const auto r = run_cli({"render", "damaged", "--out", "damaged.mp4", "--width", "64",
                          "--height", "36"},
                         *dir_);
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("frame 5: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("snapshot_000005.h5"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("HDF5-DIAG"), std::string::npos) << r.err;
}

// The processes whose command line has an argument ending in `name` (the ffmpeg writing it).
std::vector<pid_t> processes_naming(const std::string& name) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmdline = test::read_text(entry.path() / "cmdline");
    std::size_t start = 0;
    while (start < cmdline.size()) {
      const std::size_t end = std::min(cmdline.find('\0', start), cmdline.size());
      const std::string arg = cmdline.substr(start, end - start);
      if (arg.size() >= name.size() && arg.compare(arg.size() - name.size(), name.size(), name) == 0)
        found.push_back(static_cast<pid_t>(std::stol(pid)));
      start = end + 1;
    }
  }
  return found;
}

std::vector<std::string> hidden_files_of(const std::filesystem::path& dir, const std::string& out) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string f = entry.path().filename().string();
    if (f.rfind("." + out + ".", 0) == 0) names.push_back(f);
  }
  return names;
}

// SIGTERM and SIGINT stop a render between frames: ffmpeg stopped, its temporary movie and log
// removed, status 128 + the signal. SIGKILL cannot be caught: ffmpeg dies with orrery
// (PR_SET_PDEATHSIG) instead of encoding on as an orphan, and the next render to that name
// removes what the killed one left.
TEST_F(RenderCli, SignalsLeaveNoTemporaryNoLogAndNoEncoderBehind) {
  if (find_ffmpeg().empty()) GTEST_SKIP() << "no ffmpeg here";
  ASSERT_EQ(run_cli({"sim", "--scene", "plummer", "--n", "500", "--seed", "1", "--dt", "0.001",
                     "--t-end", "0.4", "--every", "1", "--quiet", "--max-drift", "0", "--out",
                     "long"},
                    *dir_)
                .status,
            0);
  for (const int signal : {SIGTERM, SIGINT, SIGKILL}) {
    const pid_t pid = test::spawn_cli({"render", "long", "--out", "sig.mp4"}, *dir_);
    const std::string temporary = fmt::format(".sig.mp4.tmp-{}.mp4", pid);
    ASSERT_TRUE(test::wait_for(*dir_ / temporary)) << test::read_text(*dir_ / ".spawn-err");
    ASSERT_EQ(processes_naming(temporary).size(), 1u);
    ::kill(pid, signal);
    EXPECT_EQ(test::wait_cli(pid), 128 + signal) << test::read_text(*dir_ / ".spawn-err");
    EXPECT_FALSE(std::filesystem::exists(*dir_ / "sig.mp4"));
    // The encoder ends with it (a killed parent's child is signalled at once, but may take a
    // moment to go).
    for (int k = 0; k < 100 && !processes_naming(temporary).empty(); ++k)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(processes_naming(temporary).empty()) << "ffmpeg left running after signal " << signal;
    if (signal == SIGKILL) {
      EXPECT_FALSE(hidden_files_of(*dir_, "sig.mp4").empty());  // what SIGKILL leaves
      const auto next = run_cli({"render", "long", "--out", "sig.mp4", "--width", "64",
                                 "--height", "36", "--quiet"},
                                *dir_);
      EXPECT_EQ(next.status, 0) << next.err;
      EXPECT_EQ(next.out, "");  // --quiet
      std::filesystem::remove(*dir_ / "sig.mp4");
    }
    EXPECT_TRUE(hidden_files_of(*dir_, "sig.mp4").empty())
        << "after signal " << signal << ": " << hidden_files_of(*dir_, "sig.mp4").front();
  }
}

// The disk fills while ffmpeg writes the movie: a tiny tmpfs, mounted in a user and mount
// namespace of its own (no root needed). The render says the disk is full, not only "Broken
// pipe" (ffmpeg's log is on the same full disk), exits 1, leaves neither the movie's temporary
// nor the log, and no ffmpeg runs on.
TEST_F(RenderCli, AFullDiskIsSaidAndNothingIsLeftOnIt) {
  if (find_ffmpeg().empty()) GTEST_SKIP() << "no ffmpeg here";
  if (std::system("unshare -rm true > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "this machine allows no unprivileged user and mount namespaces "
                    "(unshare -rm), so no small filesystem can be mounted to fill up";
  const std::filesystem::path work = *dir_ / "full";
  std::filesystem::create_directories(work / "disk");
  test::write_text(work / "fill.sh",
                   "mount -t tmpfs -o size=8k none disk || exit 99\n"
                   "'" ORRERY_CLI_PATH "' render ../galaxies --out disk/m.mp4 --quiet "
                   "2> err.txt\n"
                   "echo \"status $?\" > result.txt\n"
                   "ls -A disk >> result.txt\n");
  const int raw =
      std::system(("cd '" + work.string() + "' && unshare -rm sh fill.sh").c_str());
  if (WIFEXITED(raw) && WEXITSTATUS(raw) == 99)
    GTEST_SKIP() << "unshare works but mounting a tmpfs in it is not allowed here";
  const std::string err = test::read_text(work / "err.txt");
  EXPECT_EQ(test::read_text(work / "result.txt"), "status 1\n") << err;
  EXPECT_NE(err.find("(the disk holding 'disk' is full)"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string cmdline = test::read_text(entry.path() / "cmdline");
    EXPECT_EQ(cmdline.find(".m.mp4.tmp-"), std::string::npos) << "ffmpeg left running";
  }
  std::filesystem::remove_all(work);
}

}  // namespace
}  // namespace orrery
