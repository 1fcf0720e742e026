// SPDX-License-Identifier: MIT
#include "orrery/render/view_camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orrery {

ScreenAxes screen_axes(const Camera& camera) {
  const double ca = std::cos(camera.azimuth), sa = std::sin(camera.azimuth);
  const double ce = std::cos(camera.elevation), se = std::sin(camera.elevation);
  return {{-sa, ca, 0.0}, {-se * ca, -se * sa, ce}};
}

std::array<float, 16> clip_matrix(const Camera& camera, int width, int height,
                                  const Vec3d& origin) {
  const ScreenAxes a = screen_axes(camera);
  const double sx = 2.0 / camera.width;
  const double sy = sx * width / height;
  const Vec3d c{camera.centre.x - origin.x, camera.centre.y - origin.y,
                camera.centre.z - origin.z};
  const auto dot = [](const Vec3d& p, const Vec3d& q) { return p.x * q.x + p.y * q.y + p.z * q.z; };
  // Rows: clip x, clip y, depth 0, w = 1; stored column by column.
  const std::array<double, 16> m = {
      sx * a.right.x, sy * a.up.x, 0, 0,  //
      sx * a.right.y, sy * a.up.y, 0, 0,  //
      sx * a.right.z, sy * a.up.z, 0, 0,  //
      -sx * dot(a.right, c), -sy * dot(a.up, c), 0, 1};
  std::array<float, 16> out;
  for (int i = 0; i < 16; ++i) out[i] = static_cast<float>(m[i]);
  return out;
}

void orbit(Camera& camera, double dx, double dy, double radians_per_pixel) {
  const double half_pi = std::numbers::pi / 2;
  camera.azimuth = std::remainder(camera.azimuth - dx * radians_per_pixel, 2 * std::numbers::pi);
  camera.elevation = std::clamp(camera.elevation + dy * radians_per_pixel, -half_pi, half_pi);
}

void zoom(Camera& camera, double notches) { camera.width *= std::pow(kZoomPerNotch, -notches); }

}  // namespace orrery
