// SPDX-License-Identifier: MIT
// `orrery plot` as a user sees it: a cluster's run gives the drift picture and the Lagrangian
// radii, each of the size asked, with its curves drawn in their colours.
#include <gtest/gtest.h>

#include "orrery/render/frame_image.hpp"

#include "orrery/io/png_file.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

// Pixels of a curve's colour: a line of 2 pixels across 800 is well over this many.
constexpr int kLeastCurvePixels = 200;

int pixels_like(const RgbImage& image, Rgb8 colour) {
  int n = 0;
  for (int r = 0; r < image.height; ++r)
    for (int c = 0; c < image.width; ++c) {
      const Rgb8 p = image.at(c, r);
      n += std::abs(p.r - colour.r) + std::abs(p.g - colour.g) + std::abs(p.b - colour.b) < 60;
    }
  return n;
}

TEST(PlotCli, DrawsTheDriftAndTheLagrangianRadiiOfACluster) {
  if (!can_draw_text()) GTEST_SKIP() << "built without Cairo";
  test::TempDir dir;
  auto r = run_cli({"sim", "--scene", "plummer", "--n", "64", "--seed", "1", "--dt", "0.01",
                    "--t-end", "2", "--every", "5", "--backend", "cpu", "--quiet", "--out",
                    "cluster"},
                   dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_cli({"plot", "cluster", "--width", "800", "--height", "500"}, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const RgbImage drift = read_png(dir / "cluster-energy.png");
  EXPECT_EQ(drift.width, 800);
  EXPECT_EQ(drift.height, 500);
  EXPECT_GT(pixels_like(drift, {214, 39, 40}), kLeastCurvePixels);  // energy
  EXPECT_GT(pixels_like(drift, {31, 119, 180}), kLeastCurvePixels); // angular momentum
  const RgbImage radii = read_png(dir / "cluster-lagrangian.png");
  for (Rgb8 c : {Rgb8{31, 119, 180}, Rgb8{214, 39, 40}, Rgb8{44, 160, 44}})
    EXPECT_GT(pixels_like(radii, c), kLeastCurvePixels);
  r = run_cli({"plot", "cluster", "--out", "again"}, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "again-energy.png"));
  // The pictures are the user's once written: replaced only with --overwrite.
  const std::string kept = test::read_text(dir / "cluster-lagrangian.png");
  r = run_cli({"plot", "cluster", "--width", "400"}, dir.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--overwrite"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(dir / "cluster-lagrangian.png"), kept);
  r = run_cli({"plot", "cluster", "--width", "400", "--overwrite", "--quiet"}, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_png(dir / "cluster-energy.png").width, 400);
  r = run_cli({"plot", "nowhere"}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nowhere"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace orrery
