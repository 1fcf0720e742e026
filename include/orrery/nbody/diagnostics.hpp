// SPDX-License-Identifier: MIT
// Conserved quantities of a gravitating system and their drift since t = 0:
//   K = ½ Σ m_i |v_i|²,   W = −G Σ_{i<j} m_i m_j / √(r_ij² + ε_ij²)  (from the force engine),
//   E = K + W,   P = Σ m_i v_i,   L = Σ m_i x_i × v_i  (about the origin),
//   M X = Σ m_i x_i,   V = P / M,   and X(t) = X(0) + V(0) t for an isolated system.
// Every sum is compensated (Neumaier, core/compensated_sum.hpp) in double precision, or in the
// particles' own precision where that is wider (float128), so a drift of a few ulps is
// measured as such and not buried under the rounding of N additions. Results are doubles.
//
// Relative drifts divide by a scale of the quantity itself; where the conserved value is zero
// or nearly so (P, L, X in the centre-of-mass frame), by the sum of the magnitudes of its terms,
// which is what its rounding errors are proportional to:
//   energy:           |E − E0| / |E0|            (E0 = 0: / (K0 + |W0|))
//   momentum:         |P − P0| / max(Σ m|v|, Σ m|v| at 0)
//   angular momentum: |L − L0| / max(Σ m|x||v|, the same at 0)
//   centre of mass:   |X − X0 − V0 t| / max(R, R0),  R = √(Σ m |x − X|² / M)  (rms radius)
// A drift of 0 / 0 (nothing moves yet) is 0.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "orrery/core/particles.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

struct Diagnostics {
  double time = 0.0;
  double mass = 0.0;
  double energy_kinetic = 0.0;
  double energy_potential = 0.0;
  double energy_total = 0.0;
  Vec3d momentum{0.0, 0.0, 0.0};
  Vec3d angular_momentum{0.0, 0.0, 0.0};
  Vec3d com_position{0.0, 0.0, 0.0};
  Vec3d com_velocity{0.0, 0.0, 0.0};
  // The scales the drifts are measured against (see above).
  double momentum_scale = 0.0;          // Σ m |v|
  double angular_momentum_scale = 0.0;  // Σ m |x| |v|
  double rms_radius = 0.0;              // √(Σ m |x − X|² / M)

  // K / |W|: 1/2 for a system in virial equilibrium.
  double virial_ratio() const {
    return energy_potential != 0.0 ? energy_kinetic / -energy_potential : 0.0;
  }
};

struct Drift {
  double energy = 0.0;
  double momentum = 0.0;
  double angular_momentum = 0.0;
  double centre_of_mass = 0.0;
};

struct CentreOfMass {
  double mass = 0.0;
  Vec3d position{0.0, 0.0, 0.0};
  Vec3d velocity{0.0, 0.0, 0.0};
};

template <class Real>
CentreOfMass centre_of_mass(const Particles<Real>& p);

// Everything but W from the particles; W as computed by a force engine (or by hand).
template <class Real>
Diagnostics diagnostics_of(const Particles<Real>& p, double potential_energy, double time);

// The same from a state in a force engine's layout, [x_0..x_{N−1}, y_0.., z_0..] for positions
// and velocities (3N each), copied to the host.
template <class Real>
Diagnostics diagnostics_of(std::span<const Real> positions, std::span<const Real> velocities,
                           std::span<const Real> mass, double potential_energy, double time);

// W of the particles by `engine`, which is given the particles' masses and softening first.
template <class Real>
double potential_energy(const Particles<Real>& p, ForceEngine<Real>& engine);

// diagnostics_of(p, potential_energy(p, engine), time).
template <class Real>
Diagnostics diagnostics_of(const Particles<Real>& p, ForceEngine<Real>& engine, double time);

Drift drift_since(const Diagnostics& start, const Diagnostics& now);

// A fixed-width table for a run's progress: the header (two lines: names and what they are
// relative to) and one row per diagnostic.
std::string diagnostics_table_header();
std::string diagnostics_table_row(const Diagnostics& now, const Drift& drift);

// The diagnostics as named values (a vector has 3), for storing beside a snapshot: energy_kinetic,
// energy_potential, energy_total, momentum, angular_momentum, com_position, com_velocity, mass,
// virial_ratio, drift_energy, drift_momentum, drift_angular_momentum, drift_centre_of_mass.
struct NamedQuantity {
  std::string name;
  std::vector<double> value;
  std::string help;
};
std::vector<NamedQuantity> diagnostics_quantities(const Diagnostics& now, const Drift& drift);

}  // namespace orrery
