// SPDX-License-Identifier: MIT
#include "orrery/render/particle_splat.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/render/view_camera.hpp"

namespace orrery {

namespace {

void add(float* pixel, float weight, const BodyColour& c) {
  pixel[0] += weight * c[0];
  pixel[1] += weight * c[1];
  pixel[2] += weight * c[2];
  pixel[3] += weight;
}

}  // namespace

SplatBuffer::SplatBuffer(int width, int height, int threads)
    : width_(width), height_(height), threads_(std::max(1, threads)) {
  if (width < 1 || height < 1)
    throw ParameterError("picture size", fmt::format("{}x{}", width, height),
                         "at least 1x1 pixels");
  parts_.resize(threads_);
  for (auto& p : parts_) p.assign(static_cast<std::size_t>(width) * height * 4, 0.0f);
}

void SplatBuffer::clear() {
#pragma omp parallel for num_threads(threads_)
  for (int t = 0; t < threads_; ++t) std::fill(parts_[t].begin(), parts_[t].end(), 0.0f);
}

void SplatBuffer::splat(const Camera& camera, std::span<const double> x, std::span<const double> y,
                        std::span<const double> z, std::span<const BodyColour> colours) {
  const ScreenAxes axes = screen_axes(camera);
  const Vec3d right = axes.right, up = axes.up;
  const double scale = width_ / camera.width;  // pixels per length unit
  const std::ptrdiff_t n = std::ssize(x);
  const int w = width_, h = height_;
#pragma omp parallel num_threads(threads_)
  {
    float* image = parts_[omp_get_thread_num()].data();
#pragma omp for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const double dx = x[i] - camera.centre.x, dy = y[i] - camera.centre.y,
                   dz = z[i] - camera.centre.z;
      // Pixel centres at half-integers: the body's light is shared by the four nearest.
      const double u = (dx * right.x + dy * right.y + dz * right.z) * scale + 0.5 * w - 0.5;
      const double v = 0.5 * h - 0.5 - (dx * up.x + dy * up.y + dz * up.z) * scale;
      if (!(u > -1.0 && u < w && v > -1.0 && v < h)) continue;
      const int iu = static_cast<int>(std::floor(u)), iv = static_cast<int>(std::floor(v));
      const float fu = static_cast<float>(u - iu), fv = static_cast<float>(v - iv);
      const BodyColour& c = colours.size() == 1 ? colours[0] : colours[i];
      const float weights[4] = {(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv};
      if (iu >= 0 && iu + 1 < w && iv >= 0 && iv + 1 < h) {
        float* p = image + (static_cast<std::size_t>(iv) * w + iu) * 4;
        add(p, weights[0], c);
        add(p + 4, weights[1], c);
        add(p + 4 * static_cast<std::size_t>(w), weights[2], c);
        add(p + 4 * static_cast<std::size_t>(w) + 4, weights[3], c);
        continue;
      }
      for (int k = 0; k < 4; ++k) {
        const int pu = iu + (k & 1), pv = iv + (k >> 1);
        if (pu >= 0 && pu < w && pv >= 0 && pv < h)
          add(image + (static_cast<std::size_t>(pv) * w + pu) * 4, weights[k], c);
      }
    }
    // The threads' parts summed into the first.
    if (threads_ > 1) {
      const std::ptrdiff_t floats = std::ssize(parts_[0]);
#pragma omp for schedule(static)
      for (std::ptrdiff_t j = 0; j < floats; ++j)
        for (int t = 1; t < threads_; ++t) parts_[0][j] += parts_[t][j];
    }
  }
}

double SplatBuffer::brightest() const {
  float most = 0.0f;
  const auto& s = parts_[0];
  for (std::size_t j = 3; j < s.size(); j += 4) most = std::max(most, s[j]);
  return most;
}

double SplatBuffer::total_light() const {
  double sum = 0.0;
  const auto& s = parts_[0];
  for (std::size_t j = 3; j < s.size(); j += 4) sum += s[j];
  return sum;
}

void SplatBuffer::tone_map(double knee, double saturation, FrameImage& out) const {
  if (!(knee > 0 && saturation > knee))
    throw ParameterError("brightness scale", fmt::format("q = {}, S = {}", knee, saturation),
                         "0 < q < S");
  if (out.width != width_ || out.height != height_) out = FrameImage(width_, height_);
  const float inv_knee = static_cast<float>(1.0 / knee);
  const float norm = static_cast<float>(255.0 / std::log1p(saturation / knee));
  const float* s = parts_[0].data();
  const std::ptrdiff_t pixels = std::ssize(out.pixels);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::ptrdiff_t j = 0; j < pixels; ++j) {
    const float* p = s + 4 * j;
    if (p[3] <= 0.0f) {
      out.pixels[j] = 0;
      continue;
    }
    const float brightness = std::min(255.0f, norm * std::log1p(p[3] * inv_knee));
    const float top = std::max({p[0], p[1], p[2]});
    const float k = top > 0.0f ? brightness / top : 0.0f;
    out.pixels[j] = pack_rgb(static_cast<std::uint8_t>(p[0] * k + 0.5f),
                             static_cast<std::uint8_t>(p[1] * k + 0.5f),
                             static_cast<std::uint8_t>(p[2] * k + 0.5f));
  }
}

}  // namespace orrery
