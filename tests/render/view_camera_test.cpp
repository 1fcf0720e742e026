// SPDX-License-Identifier: MIT
// The live view's camera: its clip matrix puts a body on the pixel SplatBuffer::splat lights,
// its screen axes are a right-handed frame with the viewing direction, dragging turns it within
// the poles, and the wheel zooms by a fixed factor that the opposite turn undoes.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "orrery/render/view_camera.hpp"

namespace orrery {
namespace {

// The matrix is float: a body's projection to a small fraction of a pixel.
constexpr double kPixelTolerance = 1e-3;
constexpr double kAxisTolerance = 1e-12;
const BodyColour kWhite = {1.0f, 1.0f, 1.0f};

Vec3d along(const Vec3d& base, const Vec3d& d, double s) {
  return {base.x + s * d.x, base.y + s * d.y, base.z + s * d.z};
}

Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

TEST(ViewCamera, TheClipMatrixPutsABodyOnThePixelSplatLights) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> u(-0.3, 0.3), angle(-3.0, 3.0), lift(-1.5, 1.5);
  const int w = 64, h = 40;
  for (int trial = 0; trial < 50; ++trial) {
    const Camera camera{{u(random), u(random), u(random)}, 2.0, angle(random), lift(random)};
    const ScreenAxes a = screen_axes(camera);
    const Vec3d toward = cross(a.right, a.up);
    // A body that splat() projects onto the centre of pixel (c, r), at some depth.
    const int c = static_cast<int>(random() % w), r = static_cast<int>(random() % h);
    const double scale = w / camera.width;
    Vec3d body = along(camera.centre, a.right, (c - 0.5 * w + 0.5) / scale);
    body = along(body, a.up, (0.5 * h - 0.5 - r) / scale);
    body = along(body, toward, u(random));

    SplatBuffer b(w, h, 1);
    const std::vector<double> x{body.x}, y{body.y}, z{body.z};
    b.splat(camera, x, y, z, std::span<const BodyColour>(&kWhite, 1));
    FrameImage f;
    b.tone_map(0.05, 10.0, f);
    int lit = 0;
    for (std::uint32_t p : f.pixels) lit += p != 0;
    ASSERT_EQ(lit, 1);
    ASSERT_NE(f.at(c, r), 0u);

    const Vec3d origin{0.25, -0.5, 1.0};  // positions are uploaded relative to it
    const auto m = clip_matrix(camera, w, h, origin);
    const double p[3] = {body.x - origin.x, body.y - origin.y, body.z - origin.z};
    const double ndc_x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
    const double ndc_y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
    const double clip_w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    EXPECT_EQ(clip_w, 1.0);
    // Window coordinates (pixel centres at half-integers, y up) to splat's row and column.
    EXPECT_NEAR((ndc_x * 0.5 + 0.5) * w - 0.5, c, kPixelTolerance) << trial;
    EXPECT_NEAR(h - (ndc_y * 0.5 + 0.5) * h - 0.5, r, kPixelTolerance) << trial;
  }
}

TEST(ViewCamera, TheScreenAxesAndTheViewingDirectionAreARightHandedFrame) {
  for (double azimuth : {-2.0, 0.0, 0.7, 3.0})
    for (double elevation : {-1.2, 0.0, 0.4, std::numbers::pi / 2}) {
      const ScreenAxes a = screen_axes(Camera{{0, 0, 0}, 1, azimuth, elevation});
      const Vec3d toward = cross(a.right, a.up);
      const Vec3d expected{std::cos(elevation) * std::cos(azimuth),
                           std::cos(elevation) * std::sin(azimuth), std::sin(elevation)};
      EXPECT_NEAR(toward.x, expected.x, kAxisTolerance);
      EXPECT_NEAR(toward.y, expected.y, kAxisTolerance);
      EXPECT_NEAR(toward.z, expected.z, kAxisTolerance);
      EXPECT_NEAR(a.right.x * a.up.x + a.right.y * a.up.y + a.right.z * a.up.z, 0.0,
                  kAxisTolerance);
    }
}

TEST(ViewCamera, DraggingTurnsItAndStopsAtThePoles) {
  Camera c;  // looking down the z axis
  c.elevation = 0.0;
  const double rate = 0.01;
  orbit(c, 10, 0, rate);  // to the right: the azimuth decreases
  EXPECT_NEAR(c.azimuth, -std::numbers::pi / 2 - 0.1, kAxisTolerance);
  orbit(c, -10, 0, rate);
  EXPECT_NEAR(c.azimuth, -std::numbers::pi / 2, kAxisTolerance);
  orbit(c, 0, 1000, rate);  // far down: held at the pole
  EXPECT_EQ(c.elevation, std::numbers::pi / 2);
  orbit(c, 0, -5000, rate);
  EXPECT_EQ(c.elevation, -std::numbers::pi / 2);
  orbit(c, 2 * std::numbers::pi / rate * 3, 0, rate);  // three whole turns: where it was
  EXPECT_NEAR(c.azimuth, -std::numbers::pi / 2, 1e-9);
}

TEST(ViewCamera, TheWheelZoomsByAFixedFactorThatTheOppositeTurnUndoes) {
  Camera c;
  c.width = 3.0;
  zoom(c, 1);
  EXPECT_NEAR(c.width, 3.0 / kZoomPerNotch, kAxisTolerance);
  zoom(c, 4);
  zoom(c, -5);
  EXPECT_NEAR(c.width, 3.0, kAxisTolerance);
}

}  // namespace
}  // namespace orrery
