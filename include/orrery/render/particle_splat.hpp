// SPDX-License-Identifier: MIT
// Bodies to pixels: an orthographic camera projects each body onto the picture plane, and its
// colour is added (additive blending) to the four pixels around the projected point with
// bilinear weights, so a body's light is conserved and moves smoothly between pixels. The sums
// become a picture on a logarithmic brightness scale: a pixel that received the light of w
// bodies has brightness log(1 + w/q) / log(1 + S/q), clamped to 1, with q the light at which
// the scale turns from linear to logarithmic and S the light that saturates (both fixed for a
// whole movie, so that frames do not flicker), and the hue of the mean colour of its bodies.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "orrery/core/vec3.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery {

// Looks at `centre` from the direction (cos e cos a, cos e sin a, sin e) (azimuth a, elevation e
// in radians), `width` length units across the picture; screen x is (−sin a, cos a, 0), screen y
// the third axis of a right-handed frame. a = −π/2, e = π/2 looks down the z axis with x to the
// right and y up.
struct Camera {
  Vec3d centre{0, 0, 0};
  double width = 1;
  double azimuth = -1.5707963267948966;
  double elevation = 1.5707963267948966;
};

using BodyColour = std::array<float, 3>;  // linear, each channel in [0, 1]

namespace detail {
// A body's place on the picture (the pixel (iu, iv) above and left of it and its fractions) and
// its colour, carried along so that summing a band reads one array in order.
struct Footprint {
  std::int32_t iu, iv;
  float fu, fv;
  std::array<float, 3> colour;
};
}  // namespace detail

// Four floats per pixel: the colour sums and the light w (the sum of the weights).
class SplatBuffer {
 public:
  SplatBuffer(int width, int height, int threads);
  int width() const { return width_; }
  int height() const { return height_; }
  void clear();
  // Adds the bodies at (x, y, z) with their colours (one per body, or one for all), sorted into
  // bands of rows that `threads` threads sum side by side: the same bits for any thread count.
  void splat(const Camera& camera, std::span<const double> x, std::span<const double> y,
             std::span<const double> z, std::span<const BodyColour> colours);
  // The picture; `knee` is q and `saturation` S above.
  void tone_map(double knee, double saturation, FrameImage& out) const;
  // The largest light of a pixel (for choosing S), and the light of all pixels (N for N bodies
  // inside the picture).
  double brightest() const;
  double total_light() const;

 private:
  struct Projection;
  void splat_chunk(const Projection& project, std::span<const double> x, std::span<const double> y,
                   std::span<const double> z, std::span<const BodyColour> colours);
  void add_band(std::span<const detail::Footprint> bodies);

  int width_, height_, threads_;
  std::vector<float> sum_;                       // 4 floats per pixel
  std::vector<detail::Footprint> footprints_;    // the bodies of the last splat, by band
};

}  // namespace orrery
