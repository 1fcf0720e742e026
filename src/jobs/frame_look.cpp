// SPDX-License-Identifier: MIT
#include "orrery/jobs/frame_look.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/nbody/diagnostics.hpp"
#include "orrery/nbody/lagrangian_radii.hpp"
#include "orrery/render/colormap.hpp"
#include "orrery/scenes/two_galaxies.hpp"

namespace orrery {

namespace {

// The picture spans this many 90 % Lagrangian radii of the first state, across its shorter side.
constexpr double kExtentInRadii = 2.5;
// Speeds are coloured against this quantile of the first state's speeds, on the part of inferno
// that stands out from black.
constexpr double kSpeedQuantile = 0.99;
constexpr double kInfernoFrom = 0.35;
const BodyColour kPlain = {1.0f, 0.93f, 0.82f};
const BodyColour kGroupColours[2] = {{1.0f, 0.62f, 0.25f}, {0.35f, 0.65f, 1.0f}};

BodyColour from_rgb8(Rgb8 c) { return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f}; }

double speed(const Particles<double>& p, std::size_t i) {
  return std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i] + p.vz[i] * p.vz[i]);
}

}  // namespace

FrameLook frame_look_of(const Particles<double>& p, double extent, std::int64_t scene_n) {
  FrameLook look;
  look.scene_n = scene_n;
  look.centre = centre_of_mass(p).position;
  const double r90 = lagrangian_radii(p, std::vector<double>{0.9})[0];
  look.extent = extent > 0 ? extent : kExtentInRadii * (r90 > 0 ? r90 : 1.0);
  std::vector<double> v(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) v[i] = speed(p, i);
  if (!v.empty()) {
    const auto q = v.begin() + static_cast<std::ptrdiff_t>(kSpeedQuantile * (v.size() - 1));
    std::nth_element(v.begin(), q, v.end());
    look.speed_scale = *q > 0 ? *q : 1.0;
  }
  return look;
}

void check_colour_by(ColourBy by, const std::string& scene) {
  if (by == ColourBy::group && scene != "two-galaxies")
    throw ParameterError("--color-by", "group",
                         fmt::format("speed or plain for this run (scene '{}'): groups are "
                                     "known for the two-galaxies scene",
                                     scene.empty() ? "none, a file's particles" : scene));
}

void colour_bodies(ColourBy by, const FrameLook& look, const Particles<double>& p,
                   std::vector<BodyColour>& out) {
  if (by == ColourBy::plain) {
    out.assign(1, kPlain);
    return;
  }
  out.resize(p.size());
  const Colormap& inferno = Colormap::by_name("inferno");
  for (std::size_t i = 0; i < p.size(); ++i)
    out[i] = by == ColourBy::group
                 ? kGroupColours[two_galaxies_galaxy_of(p.id[i], look.scene_n)]
                 : from_rgb8(inferno.at(kInfernoFrom + (1 - kInfernoFrom) *
                                                           std::min(1.0, speed(p, i) / look.speed_scale)));
}

double picture_width(const FrameLook& look, int width, int height) {
  return look.extent * std::max(1.0, static_cast<double>(width) / height);
}

}  // namespace orrery
