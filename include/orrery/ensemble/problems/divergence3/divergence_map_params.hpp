// SPDX-License-Identifier: MIT
// The parameters of a three-body divergence map. The defaults reproduce the published map
// (blbadger, "Three body problem"): its system (canonical_system.hpp), planet 1 varied on the
// plane (x, y) at z = −11; twin shifted by (0.001, 0.001, 0.001); critical distance 0.5;
// explicit Euler, dt = 0.001; window [−20, 20)²; 1000 × 1000 pixels; 50 000 steps. The integrator is any of
// ensemble/map_integrators.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/ensemble/problems/divergence3/canonical_system.hpp"

namespace orrery {

// The plane in which the varied body's start moves; the third coordinate is taken from that
// body's position parameter (z = −11 for xy, x = −10 for yz by default).
enum class Plane { xy, yz, xz };

struct DivergenceMapParams {
  std::int32_t width = 1000;
  std::int32_t height = 1000;
  std::int64_t steps = 50000;
  double dt = 0.001;
  std::string integrator = "euler";
  Vec3d shift{0.001, 0.001, 0.001};
  double critical_distance = 0.5;
  std::array<double, 2> x_range{-20.0, 20.0};  // the plane's first (horizontal) coordinate
  std::array<double, 2> y_range{-20.0, 20.0};  // the plane's second (vertical) coordinate
  // The ranges' ends in double-double are x_range + x_range_low (a deep zoom's frame, narrower
  // than fp64 resolves at its coordinates); zero otherwise. Only --precision dd reads them.
  std::array<double, 2> x_range_low{0.0, 0.0}, y_range_low{0.0, 0.0};
  Plane plane = Plane::xy;
  int varied_body = 1;  // 1-based, as in "planet 1"
  std::array<double, kMapBodies> masses = CanonicalThreeBody::masses;
  double g = CanonicalThreeBody::g;
  std::array<double, 3 * kMapBodies> positions = CanonicalThreeBody::positions;
  std::array<double, 3 * kMapBodies> velocities = CanonicalThreeBody::velocities;

  Vec3d position(int body) const {
    return {positions[3 * body], positions[3 * body + 1], positions[3 * body + 2]};
  }
  Vec3d velocity(int body) const {
    return {velocities[3 * body], velocities[3 * body + 1], velocities[3 * body + 2]};
  }
  std::int64_t pixels() const { return std::int64_t{width} * height; }
};

// Every parameter with its rule; the CLI flags, config keys and HDF5 attributes come from here.
const std::vector<ParamField<DivergenceMapParams>>& divergence_map_fields();

// Checks what single fields cannot: that no two bodies start at the same point, for any pixel
// of the grid, in either twin. Throws ParameterError.
void validate(const DivergenceMapParams& params);

}  // namespace orrery
