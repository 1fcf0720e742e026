// SPDX-License-Identifier: MIT
// A thin disk of N stars on circular orbits around a central body that holds a fraction f of
// the mass M. Stars have equal masses (1 − f) M / N and a uniform surface density between the
// inner and outer radius:
//   Σ(R) = (1 − f) M / (π (R_out² − R_in²)),   M(<R) = f M + (1 − f) M (R² − R_in²)/(R_out² −
//   R_in²), v_c(R)² = G M(<R) R² / (R² + ε²)^(3/2),
// the speed of a circular orbit around the enclosed mass taken as a point with the engines'
// softened force law (exact for the central body; the monopole approximation for the disk's own
// gravity, as in the galaxy-collision models of Toomre & Toomre, ApJ 178, 623, 1972, whose
// rings of test stars circle a central mass). Heights are uniform in ±thickness/2, orbits
// counter-clockwise about +z. Units G = M = 1.
//
// The same construction builds the galaxies of the two-galaxies scene (disk_particles).
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/random_stream.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

struct DiskParams {
  std::int64_t n = 1000;  // stars; the central body comes on top
  std::uint64_t seed = 1;
  double central_fraction = 0.5;
  double inner_radius = 0.1;
  double outer_radius = 1.0;
  double thickness = 0.01;
  double softening = 0.01;
};

const std::vector<ParamField<DiskParams>>& disk_fields();
// The central body is particle 0; the disk is moved to its centre-of-mass frame.
InitialConditions make_disk(const DiskParams& params);
SceneEntry disk_scene();

// One disk in its own frame (central body at rest at the origin, particle 0; spin along +z),
// ids 0..stars, any units.
struct DiskShape {
  std::int64_t stars = 0;
  double mass = 1.0;
  double central_fraction = 0.5;
  double inner_radius = 0.1;
  double outer_radius = 1.0;
  double thickness = 0.0;
  double softening = 0.0;
  double g = 1.0;
};
Particles<double> disk_particles(const DiskShape& shape, RandomStream& random);
// The shape of the disk scene: G = M = 1.
DiskShape disk_shape(const DiskParams& params);

// v_c(R) of the construction above.
double disk_circular_speed(const DiskShape& shape, double radius);

}  // namespace orrery
