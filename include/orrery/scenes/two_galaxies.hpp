// SPDX-License-Identifier: MIT
// The galaxy collision of the CUDA course chapter (BACKGROUND.md): two galaxies of total mass
// 4·10⁴² kg, each 10²¹ m across, softening H/100 with H = 10²¹ m the diameter, approaching at
// 350 km/s; SI units, G = 6.67384·10⁻¹¹ m³ kg⁻¹ s⁻², step 10⁵ years (Julian, 3.15576·10¹² s).
//
// The course fixes only those figures; each galaxy here is the disk scene's construction
// (disk.hpp): a central body holding a fraction f of the galaxy's mass 2·10⁴² kg, and a thin
// disk of stars of uniform surface density between R_in = R/10 and R = 5·10²⁰ m (thickness
// R/100) on circular orbits around the softened enclosed mass — Toomre & Toomre's (ApJ 178,
// 623, 1972) picture of disks around central masses, which makes bridges and tails.
//
// Geometry (centre-of-mass frame; each galaxy's own centre of mass is its centre): galaxy 1
// at (−d/2, −b/2, 0) moving at (+u/2, 0, 0), galaxy 2 at (+d/2, +b/2, 0) moving at
// (−u/2, 0, 0): separation d between centres, impact parameter b, relative ("approach")
// speed u. The parameters are in SI whatever `units` the particles come out in. Galaxy 1's disk lies in the xy plane spinning
// along +z, prograde with the orbit; galaxy 2's is tilted about the x axis by the given angle.
// Particles 0..⌈n/2⌉−1 are galaxy 1 (its central body first), the rest galaxy 2 (central body
// first).
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/core/parameter.hpp"
#include "orrery/scenes/initial_conditions.hpp"
#include "orrery/scenes/scene.hpp"

namespace orrery {

inline constexpr double kCourseG = 6.67384e-11;          // m³ kg⁻¹ s⁻²
inline constexpr double kCourseTotalMass = 4e42;         // kg, both galaxies
inline constexpr double kCourseGalaxyDiameter = 1e21;    // m
inline constexpr double kJulianYear = 365.25 * 86400.0;  // s

// The units of the particles and times the scene produces: SI as the course has them, or
// N-body units (scenes/nbody_units.hpp) with the galaxy diameter and the total mass as units of
// length and mass — the same collision in numbers fp32 can square.
enum class GalaxyUnits { si, nbody };

struct TwoGalaxiesParams {
  std::int64_t n = 2000;  // particles in all, both central bodies included
  std::uint64_t seed = 1;
  double central_fraction = 0.5;
  double separation = 2e21;        // m, between the centres
  double impact_parameter = 5e20;  // m
  double approach_speed = 3.5e5;   // m/s, relative
  double tilt = 60.0;              // degrees, galaxy 2's disk to galaxy 1's
  double softening = kCourseGalaxyDiameter / 100.0;
  GalaxyUnits units = GalaxyUnits::si;
};

const std::vector<ParamField<TwoGalaxiesParams>>& two_galaxies_fields();
InitialConditions make_two_galaxies(const TwoGalaxiesParams& params);
// Which galaxy (0 or 1) the body of id `id` was made in, of a scene of `n` bodies: galaxy 1's
// bodies are drawn and numbered first.
inline int two_galaxies_galaxy_of(std::uint64_t id, std::int64_t n) {
  return id < static_cast<std::uint64_t>((n + 1) / 2) ? 0 : 1;
}
SceneEntry two_galaxies_scene();

}  // namespace orrery
