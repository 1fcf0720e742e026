// SPDX-License-Identifier: MIT
// `orrery view` under Xvfb (Mesa's software OpenGL): a live run's screenshots show the bodies
// on a dark background and change as the run advances, and a run's snapshots look as `orrery
// render` draws them (the GPU's splat against the CPU's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "orrery/io/png_file.hpp"
#include "orrery/render/frame_image.hpp"
#include "orrery/io/run_store.hpp"
#include "run_cli.hpp"
#include "xvfb_display.hpp"

namespace orrery {
namespace {

using test::run_cli;

// 2000 bodies at 320×180 light a few percent of the picture; most of it is background.
constexpr double kLeastLitFraction = 0.005;
constexpr double kLeastBackgroundFraction = 0.6;
constexpr int kLit = 24;  // a channel above this is light
// The GPU sums a pixel's light in float in another order than the CPU and rounds to 8 bits
// once as it does: a pixel at a rounding edge may land a level or two apart.
constexpr int kMostLevelsApart = 2;

// The rows between the heads-up line at the top and the scale bar at the bottom.
struct Rows {
  int first, end;
};
Rows between_overlays(const RgbImage& image) {
  return {image.height / 10, image.height * 85 / 100};
}

double lit_fraction(const RgbImage& image) {
  const Rows rows = between_overlays(image);
  double lit = 0;
  for (int r = rows.first; r < rows.end; ++r)
    for (int c = 0; c < image.width; ++c) {
      const Rgb8 p = image.at(c, r);
      lit += std::max({p.r, p.g, p.b}) > kLit;
    }
  return lit / (static_cast<double>(rows.end - rows.first) * image.width);
}

// One display for the suite: Xvfb takes a while to start.
class ViewCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { display_ = new test::XvfbDisplay; }
  static void TearDownTestSuite() {
    delete display_;
    display_ = nullptr;
  }
  void SetUp() override {
#if !ORRERY_HAVE_WINDOW
    GTEST_SKIP() << "built without GLFW and OpenGL";
#endif
    if (display_->name().empty()) GTEST_SKIP() << "no Xvfb here (Debian: xvfb)";
    on_display_ = "DISPLAY=" + display_->name();
  }
  static test::XvfbDisplay* display_;
  std::string on_display_;
  test::TempDir dir;
};
test::XvfbDisplay* ViewCli::display_ = nullptr;

std::vector<std::string> live_galaxies(const std::string& frames, const std::string& png) {
  return {"view", "--scene", "two-galaxies", "--n", "2000", "--seed", "2", "--dt",
          "3.15576e13", "--backend", "cpu", "--color-by", "group", "--width", "320",
          "--height", "180", "--exit-after-frames", frames, "--screenshot", png};
}

TEST_F(ViewCli, ALiveRunShowsTheBodiesOnABackgroundAndMoves) {
  const auto early = run_cli(live_galaxies("2", "early.png"), dir.path(), on_display_);
  ASSERT_EQ(early.status, 0) << early.err;
  const auto late = run_cli(live_galaxies("40", "late.png"), dir.path(), on_display_);
  ASSERT_EQ(late.status, 0) << late.err;
  const RgbImage a = read_png(dir / "early.png"), b = read_png(dir / "late.png");
  ASSERT_EQ(a.width, 320);
  ASSERT_EQ(a.height, 180);
  for (const RgbImage* image : {&a, &b}) {
    EXPECT_GT(lit_fraction(*image), kLeastLitFraction);
    EXPECT_LT(lit_fraction(*image), 1 - kLeastBackgroundFraction);
  }
  EXPECT_NE(a.pixels, b.pixels);
}

TEST_F(ViewCli, ARunsSnapshotsLookAsOrreryRenderDrawsThem) {
  if (!can_draw_text()) GTEST_SKIP() << "built without Cairo (orrery render needs it)";
  const auto sim = run_cli({"sim", "--scene", "two-galaxies", "--n", "2000", "--seed", "2",
                            "--dt", "3.15576e13", "--t-end", "3.15576e14", "--every", "5",
                            "--backend", "cpu", "--quiet", "--max-drift", "0", "--out", "run"},
                           dir.path());
  ASSERT_EQ(sim.status, 0) << sim.err;
  const auto render = run_cli({"render", "run", "--out", "run.mp4", "--width", "320", "--height",
                               "180", "--color-by", "speed", "--frames-dir", "frames"},
                              dir.path());
  ASSERT_EQ(render.status, 0) << render.err;
  // The third frame of the view shows the third snapshot, the last.
  const auto view = run_cli({"view", "run", "--color-by", "speed", "--width", "320", "--height",
                             "180", "--exit-after-frames", "3", "--screenshot", "view.png"},
                            dir.path(), on_display_);
  ASSERT_EQ(view.status, 0) << view.err;
  const RgbImage shown = read_png(dir / "view.png");
  const RgbImage drawn = read_png(dir / "frames" / "frame_000002.png");
  ASSERT_EQ(shown.width, drawn.width);
  ASSERT_EQ(shown.height, drawn.height);
  const Rows rows = between_overlays(drawn);
  int most = 0;
  for (int r = rows.first; r < rows.end; ++r)
    for (int c = 0; c < drawn.width; ++c) {
      const Rgb8 p = shown.at(c, r), q = drawn.at(c, r);
      const int d = std::max({std::abs(p.r - q.r), std::abs(p.g - q.g), std::abs(p.b - q.b)});
      most = std::max(most, d);
    }
  EXPECT_LE(most, kMostLevelsApart);
  EXPECT_GT(lit_fraction(shown), kLeastLitFraction);
}

// A truncated snapshot is said in orrery's one line, without HDF5's error stack (the reader's
// thread printed it: HDF5 keeps its error printing per thread).
TEST_F(ViewCli, ADamagedSnapshotIsSaidWithoutHdf5sStack) {
  const auto sim = run_cli({"sim", "--scene", "kepler", "--t-end", "1", "--dt", "0.01", "--every",
                            "20", "--backend", "cpu", "--quiet", "--out", "run"},
                           dir.path());
  ASSERT_EQ(sim.status, 0) << sim.err;
  const auto damaged = snapshot_path(dir / "run", 2);
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) / 2);
  const auto view = run_cli({"view", "run", "--exit-after-frames", "5"}, dir.path(), on_display_);
  EXPECT_EQ(view.status, 1) << view.err;
  EXPECT_NE(view.err.find("snapshot_000002.h5' is truncated"), std::string::npos) << view.err;
  EXPECT_EQ(view.err.find("HDF5-DIAG"), std::string::npos) << view.err;
}

TEST_F(ViewCli, WithoutADisplayItSaysSo) {
  const auto r = run_cli({"view", "--scene", "figure-eight", "--backend", "cpu"}, dir.path(),
                         "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no window"), std::string::npos) << r.err;
}

TEST_F(ViewCli, ARunAndASceneAreRefusedTogether) {
  const auto r = run_cli({"view", "somerun", "--scene", "figure-eight"}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("RUN"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace orrery
