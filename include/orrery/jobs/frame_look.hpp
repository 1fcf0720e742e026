// SPDX-License-Identifier: MIT
// How a run's bodies look in a picture, the same in `orrery render` and `orrery view`: what stays
// fixed over a movie or a live view is taken from its first state (the centre of mass it looks
// at, the length shown, the speed colours are measured against), and each body is coloured by
// its speed (inferno), by its galaxy (two-galaxies) or plain. The brightness scale of
// render/particle_splat.hpp turns logarithmic at kKnee of one body's light and saturates at the
// first picture's brightest pixel, at least kLeastSaturation bodies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/core/particles.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/render/particle_splat.hpp"

namespace orrery {

enum class ColourBy { speed, group, plain };

// A lone body shows at this fraction of its light; the first picture's brightest pixel
// saturates, but not below this many bodies' light.
constexpr double kKnee = 0.05;
constexpr double kLeastSaturation = 8.0;

struct FrameLook {
  Vec3d centre;
  double extent = 1;       // length across the picture's shorter side
  double speed_scale = 1;  // the speed at the top of the colour map
  std::int64_t scene_n = 0;  // two-galaxies' n, for the galaxy of a body's id
};

// `extent` > 0 replaces the default, 2.5 times the 90 % Lagrangian radius.
FrameLook frame_look_of(const Particles<double>& first, double extent, std::int64_t scene_n);

// --color-by and --extent, for every job that shows a run's bodies.
template <class P>
void add_look_fields(std::vector<ParamField<P>>& f, ColourBy P::*colour_by, double P::*extent) {
  f.push_back(choice_field("color-by", "body colour: speed (inferno), group (galaxy of "
                                       "two-galaxies) or plain",
                           colour_by, {"speed", "group", "plain"}));
  f.push_back(real_field("extent", "length shown across the picture's shorter side (default: "
                                   "2.5 times the first state's 90 % Lagrangian radius)",
                         extent, RealRule::NonNegative));
}

// ParameterError naming --color-by where the colours cannot be had for a run of `scene` ("" for
// a file's particles): groups are known for two-galaxies only.
void check_colour_by(ColourBy by, const std::string& scene);

// One colour per body, or one for all (plain).
void colour_bodies(ColourBy by, const FrameLook& look, const Particles<double>& p,
                   std::vector<BodyColour>& out);

// The width across the picture, in length units, of a picture `width`×`height` pixels whose
// shorter side shows look.extent.
double picture_width(const FrameLook& look, int width, int height);

}  // namespace orrery
