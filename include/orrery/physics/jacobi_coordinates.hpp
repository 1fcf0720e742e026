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

// out[i] = x'_i from in[i] = x_i (one component of N bodies); eta[i] = η_i as the running sum
// m₀ + m₁ + … gives it. m₀ > 0.
template <class Real>
void inertial_to_jacobi(std::span<const Real> mass, std::span<const Real> eta, const Real* in,
                        Real* out) {
  const std::size_t n = mass.size();
  Real moment = mass[0] * in[0];
  for (std::size_t i = 1; i < n; ++i) {
    out[i] = in[i] - moment / eta[i - 1];
    moment += mass[i] * in[i];
  }
  out[0] = moment / eta[n - 1];
}

// The inverse of inertial_to_jacobi (in and out may not alias).
template <class Real>
void jacobi_to_inertial(std::span<const Real> mass, std::span<const Real> eta, const Real* in,
                        Real* out) {
  const std::size_t n = mass.size();
  Real moment = eta[n - 1] * in[0];
  for (std::size_t i = n - 1; i > 0; --i) {
    out[i] = in[i] + (moment - mass[i] * in[i]) / eta[i];
    moment -= mass[i] * out[i];
  }
  out[0] = moment / mass[0];
}

}  // namespace orrery
