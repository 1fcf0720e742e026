// SPDX-License-Identifier: MIT
// N-body units for a scene made in physical units: G = 1, with a length unit L and a mass unit M
// of the scene's choosing, the time unit follows, T = √(L³ / (G M)), and the velocity unit
// V = L / T (M. Hénon, in "Dynamics of Star Clusters", IAU Symp. 113, 1986, fixes L and M by the
// system's energy; a scene may fix them by its geometry instead). The same motion, written in
// numbers near 1: what makes fp32 usable for a system whose r² in SI units (10⁴² m² for galaxies)
// overflows fp32's 3.4·10³⁸.
#pragma once

#include "orrery/scenes/initial_conditions.hpp"

namespace orrery {

struct NbodyUnits {
  double length, mass, time, velocity;  // in the scene's physical units
};

// The units with G = 1 for a length and mass in units whose gravitational constant is g.
NbodyUnits nbody_units(double g, double length, double mass);

// Rewrites the particles, G, softening, step and end time in `units`; `label` names them in
// the result's `units` text.
void to_nbody_units(InitialConditions& ic, const NbodyUnits& units, const std::string& label);

}  // namespace orrery
