// SPDX-License-Identifier: MIT
// The camera of render/particle_splat.hpp as a live view moves it: dragging turns it about its
// centre (azimuth with the horizontal motion, elevation with the vertical, held within the
// poles), the wheel zooms by a fixed factor a notch; and the matrix that puts a body where
// SplatBuffer::splat puts it, for OpenGL. With r and u the screen axes below, W the camera's
// width and w×h the picture in pixels, a body at x lands at
//
//   NDC x = 2 (x − c)·r / W,   NDC y = 2 (x − c)·u · w / (W h),
//
// the orthographic projection of splat() (pixel centres at half-integers in window coordinates).
#pragma once

#include <array>

#include "orrery/core/vec3.hpp"
#include "orrery/render/particle_splat.hpp"

namespace orrery {

// The picture's right and up directions in space.
struct ScreenAxes {
  Vec3d right, up;
};
ScreenAxes screen_axes(const Camera& camera);

// World to clip coordinates, column-major (OpenGL's order), for a picture of width×height
// pixels; every body gets depth 0 (light adds, nothing hides). `origin` is subtracted from the
// positions before they are multiplied (they are uploaded relative to it, in float).
std::array<float, 16> clip_matrix(const Camera& camera, int width, int height,
                                  const Vec3d& origin = {0, 0, 0});

// A drag of (dx, dy) pixels turns the camera by `radians_per_pixel` per pixel: right turns the
// scene to the right (azimuth decreases), down tilts it toward the viewer (elevation increases);
// the elevation stays within ±π/2.
void orbit(Camera& camera, double dx, double dy, double radians_per_pixel);
// `notches` of the wheel (positive: away from the user) narrow the width by kZoomPerNotch each.
constexpr double kZoomPerNotch = 1.1;
void zoom(Camera& camera, double notches);

}  // namespace orrery
