// SPDX-License-Identifier: MIT
// Jacobi coordinates of N bodies (Wisdom & Holman, AJ 102, 1528, 1991, §3; Murray & Dermott,
// Solar System Dynamics, 1999, §9.5): with η_i = m₀ + … + m_i the mass of bodies 0 … i and
// R_i = (m₀ x₀ + … + m_i x_i)/η_i their barycentre,
//   x'₀ = R_{N−1}   (the barycentre of all),      x'_i = x_i − R_{i−1}   (i ≥ 1),
// each body's position relative to the barycentre of the bodies before it. The map is linear, so
// velocities and accelerations transform alike. Back: with S_i = η_i R_i, S_{N−1} = η_{N−1} x'₀,
//   x_i = x'_i + (S_i − m_i x'_i)/η_i,   S_{i−1} = S_i − m_i x_i   (i = N−1 … 1),   x₀ = S₀/m₀.
// A massless body (m_i = 0) has a Jacobi coordinate and leaves every other body's unchanged, to
// the bit: its terms in the running sums are exact zeros.
#pragma once

#include <cstddef>
#include <span>

namespace orrery {

// out = the Jacobi coordinates of in, both three components of N bodies ([x…, y…, z…], N each);
// inverse_eta[i] = 1/η_i, η_i the running sum m₀ + m₁ + … + m_i (its reciprocal taken once: the
// quotients by η become products). m₀ > 0. The three components go through one loop: their
// running sums are independent chains. `active`: the bodies from it on are massless (test
// particles after the last body with mass; mass.size() where there are none): they add exact
// zeros to the sums, so their coordinates are taken in a loop of their own without the chain
// (SIMD lanes), with the same bits.
template <class Real>
void inertial_to_jacobi(std::span<const Real> mass, std::span<const Real> inverse_eta,
                        std::size_t active, const Real* in, Real* out) {
  const std::size_t n = mass.size();
  Real moment[3];
  for (std::size_t c = 0; c < 3; ++c) moment[c] = mass[0] * in[c * n];
  for (std::size_t i = 1; i < active; ++i)
    for (std::size_t c = 0; c < 3; ++c) {
      out[c * n + i] = in[c * n + i] - moment[c] * inverse_eta[i - 1];
      moment[c] += mass[i] * in[c * n + i];
    }
  for (std::size_t c = 0; c < 3; ++c) {
    const Real shift = moment[c] * inverse_eta[n - 1];
    for (std::size_t i = active > 1 ? active : 1; i < n; ++i) out[c * n + i] = in[c * n + i] - shift;
    out[c * n] = shift;
  }
}

// The inverse of inertial_to_jacobi (in and out may not alias).
template <class Real>
void jacobi_to_inertial(std::span<const Real> mass, std::span<const Real> eta,
                        std::span<const Real> inverse_eta, std::size_t active, const Real* in,
                        Real* out) {
  const std::size_t n = mass.size();
  const std::size_t first = active > 1 ? active : 1;
  Real moment[3];
  for (std::size_t c = 0; c < 3; ++c) {
    moment[c] = eta[n - 1] * in[c * n];
    const Real shift = moment[c] * inverse_eta[n - 1];
    for (std::size_t i = first; i < n; ++i) out[c * n + i] = in[c * n + i] + shift;
  }
  for (std::size_t i = first - 1; i > 0; --i)
    for (std::size_t c = 0; c < 3; ++c) {
      const Real x = in[c * n + i] + (moment[c] - mass[i] * in[c * n + i]) * inverse_eta[i];
      out[c * n + i] = x;
      moment[c] -= mass[i] * x;
    }
  for (std::size_t c = 0; c < 3; ++c) out[c * n] = moment[c] / mass[0];
}

}  // namespace orrery
