// SPDX-License-Identifier: MIT
// Three point masses in 3-D under Newtonian gravity as an ensemble problem
// (ensemble/ensemble_problem.hpp): the divergence map's system, one trajectory per start.
//
//   x_i'' = −Σ_{j≠i} Gm_j (x_i − x_j) / |x_i − x_j|³,   i = 1, 2, 3
//
// The state is (x1, y1, z1, x2, …, z3, vx1, vy1, vz1, …, vz3): positions then velocities, body
// by body; the parameters are the bodies' G·m (gm1, gm2, gm3), so a run can sweep a mass. The
// field is physics/pairwise_gravity.hpp's, the map's own (TwinDivergence), read through the flat
// coordinates; the invariant is G times the energy (its relative drift is the energy's).
// Defaults: the map's canonical system (problems/divergence3/canonical_system.hpp), so that
// grid starts on --plane x1:y1 are the map's pixels.
#pragma once

#include <array>
#include <string_view>

#include "orrery/core/vec3.hpp"
#include "orrery/ensemble/problems/divergence3/canonical_system.hpp"
#include "orrery/physics/pairwise_gravity.hpp"

namespace orrery {

struct ThreeBodyProblem {
  static constexpr int bodies = kMapBodies;
  static constexpr std::string_view name = "three-body";
  static constexpr std::string_view description =
      "x_i'' = -sum_j Gm_j (x_i - x_j)/|x_i - x_j|^3, three bodies in 3-D (the divergence map's "
      "system)";
  static constexpr bool second_order = true;
  static constexpr int coordinates = 3 * bodies;
  static constexpr int parameters = bodies;
  static constexpr std::array<std::string_view, 2 * coordinates> state_names{
      "x1",  "y1",  "z1",  "x2",  "y2",  "z2",  "x3",  "y3",  "z3",
      "vx1", "vy1", "vz1", "vx2", "vy2", "vz2", "vx3", "vy3", "vz3"};
  static constexpr std::array<std::string_view, bodies> parameter_names{"gm1", "gm2", "gm3"};
  // G·m_i as the map forms it (make_divergence_setup: one fp64 product).
  static constexpr std::array<double, bodies> parameter_defaults = [] {
    std::array<double, bodies> gm{};
    for (int n = 0; n < bodies; ++n)
      gm[n] = CanonicalThreeBody::g * CanonicalThreeBody::masses[n];
    return gm;
  }();
  static constexpr std::array<double, 2 * coordinates> state_defaults = [] {
    std::array<double, 2 * coordinates> y{};
    for (int c = 0; c < coordinates; ++c) {
      y[c] = CanonicalThreeBody::positions[c];
      y[coordinates + c] = CanonicalThreeBody::velocities[c];
    }
    return y;
  }();
  static constexpr bool has_energy = true;
  // The energy is Σ m|v|²/2 + V, not |p|²/2 + V(q): it fixes no one momentum of a plane, so grid
  // and random starts take no --energy (ensemble/ensemble_problem.hpp).
  static constexpr bool energy_starts = false;

  struct Data {};

  // The pair factor 1/r³ is a policy (physics/inverse_cube.hpp): the exact one by default, the
  // GPU's fast one where a CUDA kernel need not give the CPU's bits (pair_factor_policies).
  static constexpr bool pair_factor_policies = true;
  template <class T, class InverseCube = InverseCubeExact>
  struct Field {
    PairwiseGravity<bodies, T, InverseCube> gravity;
    ORRERY_HD void operator()(const T (&q)[coordinates], T (&a)[coordinates]) const {
      Vec3<T> x[bodies], ax[bodies];
      ORRERY_UNROLL
      for (int n = 0; n < bodies; ++n) x[n] = {q[3 * n], q[3 * n + 1], q[3 * n + 2]};
      gravity(x, ax);
      ORRERY_UNROLL
      for (int n = 0; n < bodies; ++n) {
        a[3 * n] = ax[n].x;
        a[3 * n + 1] = ax[n].y;
        a[3 * n + 2] = ax[n].z;
      }
    }
  };
  template <class T, class InverseCube = InverseCubeExact, class Parameters>
  ORRERY_HD static Field<T, InverseCube> field(const Data&, const Parameters& k) {
    Field<T, InverseCube> f;
    ORRERY_UNROLL
    for (int n = 0; n < bodies; ++n) f.gravity.gm[n] = k.value[n];
    return f;
  }

  ORRERY_HD static double potential(const Data&, const double* k, const double* q) {
    double gm[bodies];
    Vec3d x[bodies];
    for (int n = 0; n < bodies; ++n) gm[n] = k[n], x[n] = {q[3 * n], q[3 * n + 1], q[3 * n + 2]};
    return gravity_potential_times_g(gm, x);
  }
  ORRERY_HD static double energy(const Data&, const double* k, const double* y) {
    double gm[bodies];
    Vec3d x[bodies], v[bodies];
    for (int n = 0; n < bodies; ++n) {
      gm[n] = k[n];
      x[n] = {y[3 * n], y[3 * n + 1], y[3 * n + 2]};
      v[n] = {y[coordinates + 3 * n], y[coordinates + 3 * n + 1], y[coordinates + 3 * n + 2]};
    }
    return gravity_energy_times_g(gm, x, v);
  }
};

}  // namespace orrery
