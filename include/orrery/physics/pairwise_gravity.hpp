// SPDX-License-Identifier: MIT
// Newtonian accelerations of a small system of N point masses, no softening:
//
//   a_i = −G Σ_{j≠i} m_j (x_i − x_j) / |x_i − x_j|³
//
// Written once for host and device and for any lane type. Each pair (i < j, in lexicographic
// order) is visited once (Newton's third law): d = x_i − x_j, r² = |d|² = fma(z, z, fma(y, y, x·x)),
// k = InverseCube(r²), then a_i ← fma(−Gm_j·k, d, a_i) and a_j ← fma(Gm_i·k, d, a_j) (fma: one
// rounding), starting from a = 0. Every body thus sums its partners in increasing index order,
// and the result equals the plain per-body double loop bit for bit. The invariant, from the same
// G·m_j (G is not known apart from them), is G times the energy:
//
//   G E = Σ_i Gm_i |v_i|²/2 − Σ_{i<j} Gm_i Gm_j / |x_i − x_j|
//
// Reference: any text on the N-body problem, e.g. Aarseth, "Gravitational N-Body Simulations"
// (2003), §1.2.
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/physics/inverse_cube.hpp"

namespace orrery {

template <int N, class T, class InverseCube = InverseCubeExact>
struct PairwiseGravity {
  T gm[N];  // G·m_j, formed once in fp64 and then converted to T

  ORRERY_HD void operator()(const Vec3<T> (&x)[N], Vec3<T> (&a)[N]) const {
    for (int i = 0; i < N; ++i) a[i] = Vec3<T>{T(0), T(0), T(0)};
    ORRERY_UNROLL
    for (int i = 0; i < N; ++i) {
      ORRERY_UNROLL
      for (int j = i + 1; j < N; ++j) {
        const Vec3<T> d = x[i] - x[j];
        const T k = InverseCube{}(norm2(d));
        a[i] = mul_add(-(gm[j] * k), d, a[i]);
        a[j] = mul_add(gm[i] * k, d, a[j]);
      }
    }
  }
};

// G times the potential energy, −Σ_{i<j} Gm_i Gm_j / |x_i − x_j|, in double.
template <int N>
ORRERY_HD double gravity_potential_times_g(const double (&gm)[N], const Vec3d (&x)[N]) {
  double potential = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) potential -= gm[i] * gm[j] / sqrt(norm2(x[i] - x[j]));
  return potential;
}

// G times the energy (above) in double, from the bodies' G·m, positions and velocities: its
// relative change is the energy's.
template <int N>
ORRERY_HD double gravity_energy_times_g(const double (&gm)[N], const Vec3d (&x)[N],
                                        const Vec3d (&v)[N]) {
  double kinetic = 0;
  for (int i = 0; i < N; ++i) kinetic += 0.5 * gm[i] * norm2(v[i]);
  return kinetic + gravity_potential_times_g(gm, x);
}

}  // namespace orrery
