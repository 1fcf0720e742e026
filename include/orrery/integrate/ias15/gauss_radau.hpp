// SPDX-License-Identifier: MIT
// The Gauss–Radau spacings of IAS15 and the coefficient relations derived from them
// (E. Everhart, "An efficient integrator that uses Gauss–Radau spacings", IAU Colloq. 83, 1985,
// §§2–4; H. Rein & D. S. Spiegel, MNRAS 446, 1424, 2015, §2).
//
// Over a step of size Δt the acceleration is the polynomial in τ = (t − t₀)/Δt
//   a(τ) = a₀ + b₀ τ + b₁ τ² + … + b₆ τ⁷
//        = a₀ + g₀ τ + g₁ τ(τ − h₁) + … + g₆ τ(τ − h₁)⋯(τ − h₆)            (Newton form)
// through the accelerations at 0 = h₀ < h₁ < … < h₇ < 1, the zeros of P₇(2h − 1) + P₈(2h − 1)
// (P_n Legendre: Gauss–Radau with the left end fixed), whose quadrature is exact to degree 14,
// so the step is of order 15. Integrated once and twice:
//   v(τ) = v₀ + Δt τ (a₀ + Σ_k b_k τ^{k+1}/(k+2))
//   x(τ) = x₀ + Δt τ v₀ + Δt² τ² (a₀/2 + Σ_k b_k τ^{k+1}/((k+2)(k+3)))
// The g are the divided differences of the accelerations a_n = a(h_n):
//   g_{n−1} = (⋯((a_n − a₀)/(h_n − h₀) − g₀)/(h_n − h₁) − ⋯ − g_{n−2})/(h_n − h_{n−1})
// b = M g with M_jk the coefficient of τ^j in ∏_{i=1..k}(τ − h_i) (k ≥ j, M_kk = 1), g = M⁻¹ b.
// A next step of q times this one starts from a(1 + qσ) re-expanded in σ:
//   e_j = q^{j+1} Σ_{k≥j} C(k+1, j+1) b_k.
//
// Everything is computed here once, at compile time in quadruple precision (the spacings by
// Newton's method from four-digit seeds), and rounded once to the run's type.
#pragma once

#include <array>

#include "orrery/core/float128.hpp"

namespace orrery {

template <class Real>
struct GaussRadau15 {
  static constexpr int kTerms = 7;    // b₀ … b₆
  static constexpr int kSpacings = 8;  // h₀ = 0, h₁ … h₇
  std::array<Real, kSpacings> h;
  // 1/(h_n − h_j) for j < n.
  std::array<std::array<Real, kSpacings>, kSpacings> inverse_gap;
  // b = M g and g = M⁻¹ b: to_b[j][k] = M_jk, to_g[j][k] = (M⁻¹)_jk (zero for k < j).
  std::array<std::array<Real, kTerms>, kTerms> to_b, to_g;
  // C(k+1, j+1) of the predictor.
  std::array<std::array<Real, kTerms>, kTerms> binomial;
  // The weights of b_k in v and in x at the end of a step (τ = 1): 1/(k+2), 1/((k+2)(k+3)).
  std::array<Real, kTerms> v_weight, x_weight;
  // h_n^{k+1}/((k+2)(k+3)): the weights of b_k in x at spacing n.
  std::array<std::array<Real, kTerms>, kSpacings> x_weight_at;
};

namespace detail {

// P₇(t) + P₈(t) and its derivative, by the three-term recurrence
// (n+1) P_{n+1} = (2n+1) t P_n − n P_{n−1} and P'_{n+1} = P'_{n−1} + (2n+1) P_n.
constexpr float128 radau_polynomial(float128 t, float128& derivative) {
  float128 p0 = 1, p1 = t, d0 = 0, d1 = 1;
  float128 p7 = 0, d7 = 0;
  for (int n = 1; n < 8; ++n) {
    const float128 p2 = ((2 * n + 1) * t * p1 - n * p0) / (n + 1);
    const float128 d2 = d0 + (2 * n + 1) * p1;
    p0 = p1, p1 = p2, d0 = d1, d1 = d2;
    if (n == 6) p7 = p1, d7 = d1;
  }
  derivative = d7 + d1;
  return p7 + p1;
}

constexpr GaussRadau15<float128> gauss_radau_quad() {
  GaussRadau15<float128> q{};
  constexpr int T = GaussRadau15<float128>::kTerms, S = GaussRadau15<float128>::kSpacings;
  // Everhart's spacings to four digits; Newton's method converges quadratically from there.
  constexpr double seeds[S - 1] = {0.0563, 0.1802, 0.3526, 0.5472, 0.7342, 0.8853, 0.9775};
  q.h[0] = 0;
  for (int n = 1; n < S; ++n) {
    float128 t = 2 * float128(seeds[n - 1]) - 1;
    for (int i = 0; i < 12; ++i) {
      float128 slope = 0;
      const float128 f = radau_polynomial(t, slope);
      t -= f / slope;
    }
    q.h[n] = (t + 1) / 2;
  }
  for (int n = 0; n < S; ++n)
    for (int j = 0; j < n; ++j) q.inverse_gap[n][j] = 1 / (q.h[n] - q.h[j]);
  // Column k of M: the coefficients of ∏_{i=1..k}(τ − h_i), built one factor at a time.
  std::array<float128, T> poly{};
  poly[0] = 1;
  for (int k = 0; k < T; ++k) {
    if (k > 0)
      for (int j = k; j >= 0; --j) poly[j] = (j > 0 ? poly[j - 1] : 0) - q.h[k] * poly[j];
    for (int j = 0; j <= k; ++j) q.to_b[j][k] = poly[j];
  }
  // M is unit upper triangular: its inverse by back substitution, one column at a time.
  for (int k = 0; k < T; ++k) {
    q.to_g[k][k] = 1;
    for (int j = k - 1; j >= 0; --j) {
      float128 s = 0;
      for (int m = j + 1; m <= k; ++m) s += q.to_b[j][m] * q.to_g[m][k];
      q.to_g[j][k] = -s;
    }
  }
  for (int j = 0; j < T; ++j) {
    for (int k = 0; k < T; ++k) {
      // C(k+1, j+1) by the product formula.
      float128 c = k >= j ? 1 : 0;
      for (int i = 0; k >= j && i <= j; ++i) c = c * (k + 1 - i) / (i + 1);
      q.binomial[j][k] = c;
    }
    q.v_weight[j] = float128(1) / (j + 2);
    q.x_weight[j] = float128(1) / ((j + 2) * (j + 3));
  }
  for (int n = 0; n < S; ++n) {
    float128 power = q.h[n];
    for (int k = 0; k < T; ++k, power *= q.h[n]) q.x_weight_at[n][k] = power * q.x_weight[k];
  }
  return q;
}

template <class Real, class Quad, std::size_t N>
constexpr std::array<Real, N> rounded(const std::array<Quad, N>& a) {
  std::array<Real, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<Real>(a[i]);
  return out;
}
template <class Real, class Quad, std::size_t N, std::size_t M>
constexpr std::array<std::array<Real, M>, N> rounded(const std::array<std::array<Quad, M>, N>& a) {
  std::array<std::array<Real, M>, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = rounded<Real>(a[i]);
  return out;
}

template <class Real>
constexpr GaussRadau15<Real> gauss_radau() {
  constexpr GaussRadau15<float128> q = gauss_radau_quad();
  return {rounded<Real>(q.h),        rounded<Real>(q.inverse_gap), rounded<Real>(q.to_b),
          rounded<Real>(q.to_g),     rounded<Real>(q.binomial),    rounded<Real>(q.v_weight),
          rounded<Real>(q.x_weight), rounded<Real>(q.x_weight_at)};
}

}  // namespace detail

// The tables in the run's type, each entry the quadruple-precision value rounded once.
template <class Real>
inline constexpr GaussRadau15<Real> kGaussRadau15 = detail::gauss_radau<Real>();

}  // namespace orrery
