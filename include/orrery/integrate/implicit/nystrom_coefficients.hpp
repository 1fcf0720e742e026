// SPDX-License-Identifier: MIT
// The coefficients of a collocation table (implicit/collocation_tables.hpp) in a real type, and
// its Nyström form for x'' = a(x) (Hairer, Nørsett & Wanner I, §II.14): with V_i eliminated,
//
//   X_i     = x + c_i h v + h² Σ_j ā_ij A_j,   A_i = a(X_i)
//   x_{n+1} = x + h v + h² Σ_j b̄_j A_j,        v_{n+1} = v + h Σ_j b_j A_j
//
// where ā = a â and b̄ = b â (so c_i = Σ_j a_ij, since Σ_j â_ij = c_i too). From the nodes:
//
//   a_ij = ∫₀^{c_i} ℓ_j(τ) dτ,   b_j = ∫₀¹ ℓ_j(τ) dτ,   ℓ_j(τ) = Π_{m≠j} (τ − c_m)/(c_j − c_m)
//
// (collocation; GNI §II.1.3), and â = a or, for a partitioned table, â_ij = b_j (1 − a_ji/b_i)
// (the symplectic partner, GNI Theorem VI.4.6). Everything is computed in the real type from the
// nodes, so float128 gets its coefficients to its own precision rather than to a double's.
#pragma once

#include <array>

#include "orrery/integrate/implicit/collocation_tables.hpp"

namespace orrery {

template <int S, class Real>
struct NystromCoefficients {
  std::array<Real, S> c{}, b{}, b_bar{};
  std::array<std::array<Real, S>, S> a{}, a_hat{}, a_bar{};

  // Whether X_i does not depend on the stage accelerations (its row of ā is zero): the first
  // stage of the trapezoid and of Lobatto, X_1 = x.
  bool stage_is_explicit(int i) const {
    for (const Real& value : a_bar[i])
      if (value != Real(0)) return false;
    return true;
  }
  // The stages a sweep of the iteration evaluates.
  int implicit_stages() const {
    int n = 0;
    for (int i = 0; i < S; ++i) n += stage_is_explicit(i) ? 0 : 1;
    return n;
  }
};

namespace detail {

// The monomial coefficients p[0..S−1] of the Lagrange polynomial ℓ_j of the nodes.
template <int S, class Real>
std::array<Real, S> lagrange_monomials(const std::array<Real, S>& c, int j) {
  std::array<Real, S> p{};
  p[0] = Real(1);
  int degree = 0;
  for (int m = 0; m < S; ++m) {
    if (m == j) continue;
    const Real scale = Real(1) / (c[j] - c[m]);
    // p ← p · (τ − c_m) · scale
    for (int k = degree + 1; k > 0; --k) p[k] = (p[k - 1] - c[m] * p[k]) * scale;
    p[0] = -c[m] * p[0] * scale;
    ++degree;
  }
  return p;
}

// ∫₀^t p(τ) dτ for monomial coefficients p.
template <int S, class Real>
Real integral_to(const std::array<Real, S>& p, Real t) {
  Real sum(0);
  for (int k = S - 1; k >= 0; --k) sum = sum * t + p[k] / Real(k + 1);
  return sum * t;
}

}  // namespace detail

// The coefficients of `Table` in `Real`.
template <CollocationTable Table, class Real>
NystromCoefficients<Table::stages, Real> nystrom_coefficients() {
  constexpr int S = Table::stages;
  NystromCoefficients<S, Real> k;
  k.c = Table::template nodes<Real>();
  for (int j = 0; j < S; ++j) {
    const std::array<Real, S> l = detail::lagrange_monomials<S, Real>(k.c, j);
    k.b[j] = detail::integral_to<S, Real>(l, Real(1));
    for (int i = 0; i < S; ++i) k.a[i][j] = detail::integral_to<S, Real>(l, k.c[i]);
  }
  for (int i = 0; i < S; ++i)
    for (int j = 0; j < S; ++j)
      k.a_hat[i][j] = Table::partitioned ? k.b[j] * (Real(1) - k.a[j][i] / k.b[i]) : k.a[i][j];
  for (int j = 0; j < S; ++j) {
    for (int m = 0; m < S; ++m) {
      for (int i = 0; i < S; ++i) k.a_bar[i][j] += k.a[i][m] * k.a_hat[m][j];
      k.b_bar[j] += k.b[m] * k.a_hat[m][j];
    }
  }
  return k;
}

}  // namespace orrery
