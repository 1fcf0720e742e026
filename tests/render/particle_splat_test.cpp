// SPDX-License-Identifier: MIT
// Splatting conserves light and puts it where the camera's geometry says; the brightness scale
// is the documented logarithm, fixed by q and S.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "orrery/render/particle_splat.hpp"

namespace orrery {
namespace {

// Float sums of up to a few thousand weights in [0, 1], relative.
constexpr double kLightTolerance = 1e-3;
const BodyColour kWhite = {1.0f, 1.0f, 1.0f};

// The pixel a white body's light reaches most.
std::pair<int, int> brightest_pixel(const FrameImage& f) {
  std::pair<int, int> best{0, 0};
  std::uint32_t most = 0;
  for (int r = 0; r < f.height; ++r)
    for (int c = 0; c < f.width; ++c)
      if ((f.at(c, r) & 0xff) > most) most = f.at(c, r) & 0xff, best = {c, r};
  return best;
}

TEST(ParticleSplat, LightIsConservedForBodiesInsideThePicture) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> inside(-0.45, 0.45);
  const int n = 5000;
  std::vector<double> x(n), y(n), z(n);
  for (int i = 0; i < n; ++i) x[i] = inside(random), y[i] = inside(random) * 0.5, z[i] = inside(random);
  for (int threads : {1, 2}) {
    SplatBuffer b(64, 32, threads);
    b.splat(Camera{{0, 0, 0}, 1.0}, x, y, z, std::span<const BodyColour>(&kWhite, 1));
    EXPECT_NEAR(b.total_light(), n, kLightTolerance * n) << threads;
  }
}

// Bodies everywhere, across many bands of rows and beyond the picture's edges, coloured one by
// one: every pixel's sums come out the same bits whatever the number of threads, and the light
// of the bodies wholly inside is all there.
TEST(ParticleSplat, TheSameBitsForAnyThreadCount) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> spread(-0.6, 0.6), unit(0.0, 1.0);
  const int n = 40000;
  std::vector<double> x(n), y(n), z(n);
  std::vector<BodyColour> colours(n);
  for (int i = 0; i < n; ++i) {
    x[i] = spread(random), y[i] = spread(random) * 0.75, z[i] = spread(random);
    colours[i] = {float(unit(random)), float(unit(random)), float(unit(random))};
  }
  FrameImage reference;
  double light = 0;
  for (int threads : {1, 2, 3, 7}) {
    SplatBuffer b(160, 90, threads);
    b.splat(Camera{{0, 0, 0}, 1.0}, x, y, z, colours);
    FrameImage f;
    b.tone_map(0.05, 20.0, f);
    if (threads == 1) {
      reference = f, light = b.total_light();
      continue;
    }
    EXPECT_TRUE(f.pixels == reference.pixels) << threads << " threads";
    EXPECT_EQ(b.total_light(), light) << threads << " threads";
  }
  // Bodies whose four pixels are all inside: |x| < 0.5 − 1 pixel, |y| < 0.28 − 1 pixel.
  int inside = 0;
  for (int i = 0; i < n; ++i) inside += std::abs(x[i]) < 0.49 && std::abs(y[i]) < 0.27;
  EXPECT_GE(light, inside * (1 - kLightTolerance));
  EXPECT_LE(light, n * (1 + kLightTolerance));
}

TEST(ParticleSplat, ABodyOnAPixelCentreLightsThatPixelAlone) {
  // 20 pixels for 20 length units: a body at (0.5, -0.5) projects onto pixel (10, 10)'s centre.
  SplatBuffer b(20, 20, 1);
  const std::vector<double> x{0.5}, y{-0.5}, z{0.0};
  b.splat(Camera{{0, 0, 0}, 20.0}, x, y, z, std::span<const BodyColour>(&kWhite, 1));
  EXPECT_NEAR(b.brightest(), 1.0, kLightTolerance);
  FrameImage f;
  b.tone_map(0.05, 10.0, f);
  EXPECT_EQ(brightest_pixel(f), (std::pair<int, int>{10, 10}));
  int lit = 0;
  for (std::uint32_t p : f.pixels) lit += p != 0;
  EXPECT_EQ(lit, 1);
}

TEST(ParticleSplat, BrightnessIsLogarithmicAndSaturatesAtS) {
  const double q = 0.05, s = 10.0;
  for (int k : {1, 3, 9, 30}) {
    SplatBuffer b(20, 20, 1);
    const std::vector<double> x(k, 0.5), y(k, -0.5), z(k, 0.0);
    b.splat(Camera{{0, 0, 0}, 20.0}, x, y, z, std::span<const BodyColour>(&kWhite, 1));
    FrameImage f;
    b.tone_map(q, s, f);
    const double expected = std::min(255.0, 255.0 * std::log1p(k / q) / std::log1p(s / q));
    EXPECT_NEAR(static_cast<double>(f.at(10, 10) & 0xff), expected, 1.0) << k;
    EXPECT_EQ(f.at(10, 10) >> 16, f.at(10, 10) & 0xff) << "white stays white";
  }
}

TEST(ParticleSplat, TheCameraLooksAsDocumented) {
  const std::vector<double> x{0.0}, y{0.0}, z{4.0};  // above the xy plane
  // From +x at elevation 0: z is up, so the body is above the middle row.
  SplatBuffer side(40, 40, 1);
  side.splat(Camera{{0, 0, 0}, 20.0, 0.0, 0.0}, x, y, z, std::span<const BodyColour>(&kWhite, 1));
  FrameImage f;
  side.tone_map(0.05, 10.0, f);
  const auto [c, r] = brightest_pixel(f);
  EXPECT_NEAR(c, 19.5, 1.0);
  EXPECT_NEAR(r, 19.5 - 8.0, 1.0);  // 4 units at 2 pixels a unit
  // From above (the default): x to the right, y up; the body at the centre.
  const std::vector<double> x2{5.0}, y2{2.5}, z2{0.0};
  SplatBuffer top(40, 40, 1);
  top.splat(Camera{{0, 0, 0}, 20.0}, x2, y2, z2, std::span<const BodyColour>(&kWhite, 1));
  top.tone_map(0.05, 10.0, f);
  const auto [c2, r2] = brightest_pixel(f);
  EXPECT_NEAR(c2, 19.5 + 10.0, 1.0);
  EXPECT_NEAR(r2, 19.5 - 5.0, 1.0);
}

}  // namespace
}  // namespace orrery
