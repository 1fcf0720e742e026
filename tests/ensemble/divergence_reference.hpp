// SPDX-License-Identifier: MIT
// The divergence map written plainly from its specification, one pixel at a time, with nothing
// shared with the library but the arithmetic contract (docs/divergence-map.md): per body i, the
// partners j ≠ i in increasing order, a_i ← fma(−(G·m_j)·k, x_i − x_j, a_i) with
// k = 1/(r²·√r²) and r² = fma(dz, dz, fma(dy, dy, dx·dx)); then v ← fma(dt, a, v) and
// x ← fma(dt, v_old, x). `Factor` is the type the pair factor k is evaluated in.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery::test {

template <class Real, class Factor = Real>
std::int32_t reference_pixel_count(const DivergenceMapParams& p, std::int64_t j, std::int64_t k,
                                   bool* nonfinite = nullptr) {
  const int b = p.varied_body - 1;
  int au = 0, av = 1;
  if (p.plane == Plane::yz) au = 1, av = 2;
  if (p.plane == Plane::xz) au = 0, av = 2;

  // Start positions in fp64, as the specification computes them, then rounded to Real.
  double x0[2][3][3], v0[3][3];
  for (int n = 0; n < 3; ++n)
    for (int c = 0; c < 3; ++c) {
      x0[0][n][c] = x0[1][n][c] = p.positions[3 * n + c];
      v0[n][c] = p.velocities[3 * n + c];
    }
  x0[0][b][au] = p.x_range[0] + ((p.x_range[1] - p.x_range[0]) * static_cast<double>(j)) / p.width;
  x0[0][b][av] = p.y_range[0] + ((p.y_range[1] - p.y_range[0]) * static_cast<double>(k)) / p.height;
  const double shift[3] = {p.shift.x, p.shift.y, p.shift.z};
  for (int c = 0; c < 3; ++c) x0[1][b][c] = x0[0][b][c] + shift[c];

  Real x[2][3][3], v[2][3][3], gm[3];
  for (int s = 0; s < 2; ++s)
    for (int n = 0; n < 3; ++n)
      for (int c = 0; c < 3; ++c) {
        x[s][n][c] = static_cast<Real>(x0[s][n][c]);
        v[s][n][c] = static_cast<Real>(v0[n][c]);
      }
  for (int n = 0; n < 3; ++n) gm[n] = static_cast<Real>(p.g * p.masses[n]);
  const Real dt = static_cast<Real>(p.dt);
  const Real dc2 = static_cast<Real>(p.critical_distance * p.critical_distance);

  if (nonfinite) *nonfinite = false;
  for (std::int64_t step = 0; step < p.steps; ++step) {
    Real d[3];
    for (int c = 0; c < 3; ++c) d[c] = x[0][b][c] - x[1][b][c];
    const Real d2 = std::fma(d[2], d[2], std::fma(d[1], d[1], d[0] * d[0]));
    if (!(d2 <= dc2)) {
      if (nonfinite) *nonfinite = !std::isfinite(d2);
      return static_cast<std::int32_t>(step);
    }
    for (int s = 0; s < 2; ++s) {
      Real a[3][3] = {};
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 3; ++m) {
          if (m == i) continue;
          Real r[3];
          for (int c = 0; c < 3; ++c) r[c] = x[s][i][c] - x[s][m][c];
          const Real r2 = std::fma(r[2], r[2], std::fma(r[1], r[1], r[0] * r[0]));
          const Factor r2f = static_cast<Factor>(r2);
          const Real kf = static_cast<Real>(Factor(1) / (r2f * std::sqrt(r2f)));
          for (int c = 0; c < 3; ++c) a[i][c] = std::fma(-(gm[m] * kf), r[c], a[i][c]);
        }
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c) {
          const Real v_old = v[s][i][c];
          v[s][i][c] = std::fma(dt, a[i][c], v_old);
          x[s][i][c] = std::fma(dt, v_old, x[s][i][c]);
        }
    }
  }
  return static_cast<std::int32_t>(p.steps);
}

}  // namespace orrery::test
