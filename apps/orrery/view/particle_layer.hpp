// SPDX-License-Identifier: MIT
// The bodies drawn as `orrery render` draws them (render/particle_splat.hpp), on the GPU: each
// body adds its colour, with the bilinear weights of splat() on the four pixels around it, to a
// float picture (additive blending into RGBA32F: colour sums and light w), and a second pass maps
// that picture to the logarithmic brightness scale of tone_map(), adding the heads-up picture.
#pragma once

#include <array>

#include "gl.hpp"
#include "orrery/jobs/view_job.hpp"
#include "orrery/render/frame_image.hpp"

namespace orrery::view {

class ParticleLayer {
 public:
  ParticleLayer();
  ~ParticleLayer();
  ParticleLayer(const ParticleLayer&) = delete;
  ParticleLayer& operator=(const ParticleLayer&) = delete;

  void upload(const ViewFrame& frame);
  // The bodies into the float picture of width×height pixels (made again when the size changes).
  void accumulate(const std::array<float, 16>& clip, int width, int height);
  // The most light in one pixel of that picture (read back; for the saturation S).
  double brightest();
  // The heads-up picture, black where it shows nothing; it must have the picture's size.
  void set_overlay(const FrameImage& overlay);
  // To the window's framebuffer: brightness log(1 + w/q) / log(1 + S/q), the hue of the mean
  // colour, plus the overlay.
  void present(double knee, double saturation);

 private:
  void resize(int width, int height);

  GLuint splat_program_ = 0, tone_program_ = 0;
  GLuint vertex_array_ = 0, positions_ = 0, colours_ = 0, empty_array_ = 0;
  GLuint framebuffer_ = 0, light_ = 0, overlay_ = 0;
  int width_ = 0, height_ = 0;
  GLsizei bodies_ = 0;
  bool one_colour_ = false;
  std::array<float, 3> colour_{1, 1, 1};
  bool has_overlay_ = false;
};

}  // namespace orrery::view
