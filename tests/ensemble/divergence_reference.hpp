// SPDX-License-Identifier: MIT
// The divergence map written plainly from its specification, one pixel at a time, with nothing
// shared with the library but the arithmetic contract (docs/internals/divergence-map.md): per body
// i, the partners j ≠ i in increasing order, a_i ← fma(−(G·m_j)·k, x_i − x_j, a_i) with
// k = 1/(r²·√r²) and r² = fma(dz, dz, fma(dy, dy, dx·dx)). `Factor` is the type the pair factor
// k is evaluated in. The step is the named integrator's, from coefficients typed here from the
// literature (not the library's tables), each sum y + h Σ c_j K_j evaluated as
// s = c_first·K_first (K itself for c = 1), s ← fma(c_j, K_j, s) over the other nonzero c_j,
// y ← fma(h, s, y): explicit Euler is then v ← fma(dt, a, v), x ← fma(dt, v_old, x).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "orrery/ensemble/problems/divergence3/divergence_map_params.hpp"

namespace orrery::test {

// An integrator as plain data.
struct ReferenceMethod {
  enum class Kind { runge_kutta, splitting, adams_bashforth } kind;
  std::vector<std::vector<double>> a;           // Runge–Kutta: a[i][j], j < i
  std::vector<double> b;                        // Runge–Kutta weights
  std::vector<std::pair<char, double>> ops;     // splitting: ('d', c) drift, ('k', d) kick
  std::vector<double> beta;                     // Adams–Bashforth weights, newest first
  int starter_steps = 0;                        // Adams–Bashforth: explicit Euler steps first
};

inline ReferenceMethod reference_method(const std::string& name) {
  using K = ReferenceMethod::Kind;
  // Yoshida (1990): w1 = 1/(2 − 2^{1/3}) to 36 digits, w0 = 1 − 2 w1.
  const double w1 = 1.35120719195965763404768780897146, w0 = 1.0 - 2.0 * w1;
  if (name == "euler") return {K::runge_kutta, {{}}, {1.0}};
  if (name == "midpoint") return {K::runge_kutta, {{}, {0.5}}, {0.0, 1.0}};
  if (name == "rk4")
    return {K::runge_kutta,
            {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
            {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0}};
  if (name == "symplectic-euler") return {K::splitting, {}, {}, {{'k', 1.0}, {'d', 1.0}}};
  if (name == "leapfrog") return {K::splitting, {}, {}, {{'k', 0.5}, {'d', 1.0}, {'k', 0.5}}};
  if (name == "yoshida4")
    return {K::splitting, {}, {},
            {{'k', w1 / 2}, {'d', w1}, {'k', (1.0 - w1) / 2}, {'d', w0},
             {'k', (1.0 - w1) / 2}, {'d', w1}, {'k', w1 / 2}}};
  if (name == "ab2") return {K::adams_bashforth, {}, {}, {}, {1.5, -0.5}, 4};
  if (name == "ab4")
    return {K::adams_bashforth, {}, {}, {}, {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24}, 4};
  throw std::invalid_argument("no reference for integrator " + name);
}

namespace detail {

// y + h Σ c_j K_j in the contract's order; K[j] is a whole state (3 bodies × 3 components).
template <class Real>
using Field = std::array<std::array<Real, 3>, 3>;

template <class Real>
Field<Real> combine(const Field<Real>& y, Real h, const std::vector<double>& c,
                    const std::vector<const Field<Real>*>& k) {
  Field<Real> out = y;
  for (int n = 0; n < 3; ++n)
    for (int d = 0; d < 3; ++d) {
      bool any = false;
      Real s = 0;
      for (std::size_t j = 0; j < c.size() && j < k.size(); ++j) {
        if (c[j] == 0.0) continue;
        const Real kj = (*k[j])[n][d];
        s = any ? std::fma(static_cast<Real>(c[j]), kj, s)
                : (c[j] == 1.0 ? kj : static_cast<Real>(c[j]) * kj);
        any = true;
      }
      if (any) out[n][d] = std::fma(h, s, y[n][d]);
    }
  return out;
}

}  // namespace detail

template <class Real, class Factor = Real>
std::int32_t reference_pixel_count(const DivergenceMapParams& p, std::int64_t j, std::int64_t k,
                                   bool* nonfinite = nullptr) {
  using F = detail::Field<Real>;
  const ReferenceMethod method = reference_method(p.integrator);
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

  F x[2], v[2];
  Real gm[3];
  for (int s = 0; s < 2; ++s)
    for (int n = 0; n < 3; ++n)
      for (int c = 0; c < 3; ++c) {
        x[s][n][c] = static_cast<Real>(x0[s][n][c]);
        v[s][n][c] = static_cast<Real>(v0[n][c]);
      }
  for (int n = 0; n < 3; ++n) gm[n] = static_cast<Real>(p.g * p.masses[n]);
  const Real dt = static_cast<Real>(p.dt);
  const Real dc2 = static_cast<Real>(p.critical_distance * p.critical_distance);

  const auto accel = [&](const F& pos) {
    F a{};
    for (int i = 0; i < 3; ++i)
      for (int m = 0; m < 3; ++m) {
        if (m == i) continue;
        Real r[3];
        for (int c = 0; c < 3; ++c) r[c] = pos[i][c] - pos[m][c];
        const Real r2 = std::fma(r[2], r[2], std::fma(r[1], r[1], r[0] * r[0]));
        const Factor r2f = static_cast<Factor>(r2);
        const Real kf = static_cast<Real>(Factor(1) / (r2f * std::sqrt(r2f)));
        for (int c = 0; c < 3; ++c) a[i][c] = std::fma(-(gm[m] * kf), r[c], a[i][c]);
      }
    return a;
  };
  // Adams–Bashforth history, newest first, per system.
  std::deque<F> past_v[2], past_a[2];
  const auto step = [&](int s, std::int64_t n) {
    using K = ReferenceMethod::Kind;
    if (method.kind == K::runge_kutta) {
      const std::size_t S = method.b.size();
      std::vector<F> V(S), A(S);
      std::vector<const F*> pv, pa;
      for (std::size_t i = 0; i < S; ++i) {
        const std::vector<double> row(method.a[i].begin(), method.a[i].end());
        const F X = detail::combine(x[s], dt, row, pv);
        V[i] = detail::combine(v[s], dt, row, pa);
        A[i] = accel(X);
        pv.push_back(&V[i]);
        pa.push_back(&A[i]);
      }
      x[s] = detail::combine(x[s], dt, method.b, pv);
      v[s] = detail::combine(v[s], dt, method.b, pa);
    } else if (method.kind == K::splitting) {
      for (const auto& [what, c] : method.ops) {
        if (what == 'd') {
          const F vs = v[s];
          x[s] = detail::combine(x[s], dt, {c}, {&vs});
        } else {
          const F a = accel(x[s]);
          v[s] = detail::combine(v[s], dt, {c}, {&a});
        }
      }
    } else {
      past_v[s].push_front(v[s]);
      past_a[s].push_front(accel(x[s]));
      if (past_v[s].size() > method.beta.size()) past_v[s].pop_back(), past_a[s].pop_back();
      if (n < method.starter_steps) {
        const F v_old = v[s];
        v[s] = detail::combine(v[s], dt, {1.0}, {&past_a[s][0]});
        x[s] = detail::combine(x[s], dt, {1.0}, {&v_old});
      } else {
        std::vector<const F*> hv, ha;
        for (std::size_t i = 0; i < method.beta.size(); ++i)
          hv.push_back(&past_v[s][i]), ha.push_back(&past_a[s][i]);
        x[s] = detail::combine(x[s], dt, method.beta, hv);
        v[s] = detail::combine(v[s], dt, method.beta, ha);
      }
    }
  };

  if (nonfinite) *nonfinite = false;
  for (std::int64_t n = 0; n < p.steps; ++n) {
    Real d[3];
    for (int c = 0; c < 3; ++c) d[c] = x[0][b][c] - x[1][b][c];
    const Real d2 = std::fma(d[2], d[2], std::fma(d[1], d[1], d[0] * d[0]));
    if (!(d2 <= dc2)) {
      if (nonfinite) *nonfinite = !std::isfinite(d2);
      return static_cast<std::int32_t>(n);
    }
    step(0, n);
    step(1, n);
  }
  return static_cast<std::int32_t>(p.steps);
}

}  // namespace orrery::test
