// SPDX-License-Identifier: MIT
#include "orrery/render/particle_splat.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

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
  sum_.assign(static_cast<std::size_t>(width) * height * 4, 0.0f);
}

void SplatBuffer::clear() {
  const std::ptrdiff_t rows = height_;
  const std::size_t row_floats = static_cast<std::size_t>(width_) * 4;
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::ptrdiff_t r = 0; r < rows; ++r)
    std::fill_n(sum_.data() + static_cast<std::size_t>(r) * row_floats, row_floats, 0.0f);
}

namespace {

// Rows per band: a band's pixels (1920 wide: 16 rows × 30 kB) stay in a core's cache while its
// bodies are added.
constexpr int kBandRows = 16;
// Bodies sorted at a time (their footprints take 28 bytes each).
constexpr std::size_t kChunkBodies = std::size_t{1} << 20;

using detail::Footprint;

}  // namespace

struct SplatBuffer::Projection {
  Vec3d centre, right, up;
  double scale;
  int w, h;

  Projection(const Camera& camera, int width, int height)
      : centre(camera.centre), scale(width / camera.width), w(width), h(height) {
    const double ca = std::cos(camera.azimuth), sa = std::sin(camera.azimuth);
    const double ce = std::cos(camera.elevation), se = std::sin(camera.elevation);
    right = {-sa, ca, 0.0};
    up = {-se * ca, -se * sa, ce};
  }

  // False for a body whose light falls outside the picture.
  bool operator()(double x, double y, double z, Footprint& f) const {
    const double dx = x - centre.x, dy = y - centre.y, dz = z - centre.z;
    // Pixel centres at half-integers: the body's light is shared by the four nearest.
    const double u = (dx * right.x + dy * right.y + dz * right.z) * scale + 0.5 * w - 0.5;
    const double v = 0.5 * h - 0.5 - (dx * up.x + dy * up.y + dz * up.z) * scale;
    if (!(u > -1.0 && u < w && v > -1.0 && v < h)) return false;
    f.iu = static_cast<std::int32_t>(std::floor(u));
    f.iv = static_cast<std::int32_t>(std::floor(v));
    f.fu = static_cast<float>(u - f.iu);
    f.fv = static_cast<float>(v - f.iv);
    return true;
  }

  // The band of the body's upper row (row −1 counts as band 0).
  static int band(const Footprint& f) { return f.iv < 0 ? 0 : f.iv / kBandRows; }
};

// Bodies are sorted by band (a stable counting sort: each band keeps the bodies' order), then
// bands are summed one per thread at a time, even bands first and odd ones after: a body of
// band b also lights the first row of band b + 1, so two bands summed at once are never
// neighbours. Every pixel thus receives its bodies in one order whatever the thread count — the
// same bits from 1 thread or 16 — and the pixels a thread touches stay in its cache. The bodies
// go through in chunks, in order, so the sort's memory stays bounded at any N.
void SplatBuffer::splat(const Camera& camera, std::span<const double> x, std::span<const double> y,
                        std::span<const double> z, std::span<const BodyColour> colours) {
  const Projection project(camera, width_, height_);
  for (std::size_t first = 0; first < x.size(); first += kChunkBodies) {
    const std::size_t count = std::min(kChunkBodies, x.size() - first);
    splat_chunk(project, x.subspan(first, count), y.subspan(first, count), z.subspan(first, count),
                colours.size() == 1 ? colours : colours.subspan(first, count));
  }
}

void SplatBuffer::splat_chunk(const Projection& project, std::span<const double> x,
                              std::span<const double> y, std::span<const double> z,
                              std::span<const BodyColour> colours) {
  const std::size_t n = x.size();
  const int bands = (height_ + kBandRows - 1) / kBandRows;
  const int threads = threads_;
  // counts[t][b]: bodies of thread t's share in band b, then where they go.
  std::vector<std::vector<std::size_t>> counts(threads, std::vector<std::size_t>(bands + 1, 0));
  std::vector<std::size_t> band_start(bands + 1, 0);
  auto share = [&](int t) {
    return std::pair<std::size_t, std::size_t>{n * t / threads, n * (t + 1) / threads};
  };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const auto [first, last] = share(t);
    Footprint f{};
    for (std::size_t i = first; i < last; ++i)
      if (project(x[i], y[i], z[i], f)) ++counts[t][Projection::band(f)];
#pragma omp barrier
#pragma omp single
    {
      std::size_t at = 0;
      for (int b = 0; b < bands; ++b) {
        band_start[b] = at;
        for (int u = 0; u < threads; ++u) {
          const std::size_t c = counts[u][b];
          counts[u][b] = at;
          at += c;
        }
      }
      band_start[bands] = at;
      footprints_.resize(at);
    }
    for (std::size_t i = first; i < last; ++i)
      if (project(x[i], y[i], z[i], f)) {
        f.colour = colours.size() == 1 ? colours[0] : colours[i];
        footprints_[counts[t][Projection::band(f)]++] = f;
      }
#pragma omp barrier
    for (int parity = 0; parity < 2; ++parity) {
#pragma omp for schedule(dynamic)
      for (int b = parity; b < bands; b += 2)
        add_band(std::span(footprints_).subspan(band_start[b], band_start[b + 1] - band_start[b]));
    }
  }
}

void SplatBuffer::add_band(std::span<const detail::Footprint> bodies) {
  const int w = width_, h = height_;
  float* image = sum_.data();
  for (const Footprint& f : bodies) {
    const BodyColour& c = f.colour;
    const float fu = f.fu, fv = f.fv;
    const float weights[4] = {(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv};
    if (f.iu >= 0 && f.iu + 1 < w && f.iv >= 0 && f.iv + 1 < h) {
      float* p = image + (static_cast<std::size_t>(f.iv) * w + f.iu) * 4;
      add(p, weights[0], c);
      add(p + 4, weights[1], c);
      add(p + 4 * static_cast<std::size_t>(w), weights[2], c);
      add(p + 4 * static_cast<std::size_t>(w) + 4, weights[3], c);
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      const int pu = f.iu + (k & 1), pv = f.iv + (k >> 1);
      if (pu >= 0 && pu < w && pv >= 0 && pv < h)
        add(image + (static_cast<std::size_t>(pv) * w + pu) * 4, weights[k], c);
    }
  }
}

double SplatBuffer::brightest() const {
  float most = 0.0f;
  const auto& s = sum_;
  for (std::size_t j = 3; j < s.size(); j += 4) most = std::max(most, s[j]);
  return most;
}

double SplatBuffer::total_light() const {
  double sum = 0.0;
  const auto& s = sum_;
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
  const float* s = sum_.data();
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
