// SPDX-License-Identifier: MIT
// A body's motion about a fixed mass μ = G M over a time h, on its conic, by universal variables
// (Danby, Fundamentals of Celestial Mechanics, 1988, §6.9; Wisdom & Hernandez, MNRAS 453, 3015,
// 2015, the solver of REBOUND's WHFast). With r₀ = |x₀|, η₀ = x₀·v₀, β = 2μ/r₀ − v₀² and
// ζ₀ = μ − β r₀, the universal anomaly X solves Kepler's equation
//   h = r₀ X + η₀ G₂(β, X) + ζ₀ G₃(β, X),   r = r₀ + η₀ G₁ + ζ₀ G₂ = dh/dX > 0,
// with the Stumpff functions G_k(β, X) = X^k c_k(β X²), c_k(z) = Σ_j (−z)^j / (k + 2j)!; then
//   x = f x₀ + g v₀,   v = ḟ x₀ + ġ v₀,
//   f = 1 − μ G₂/r₀,  g = h − μ G₃,  ḟ = −μ G₁/(r₀ r),  ġ = 1 − μ G₂/r.
// The same formulas hold for ellipses (β > 0) and hyperbolae (β < 0), forwards and backwards.
//
// X is found from the second-order guess X ≈ h/r₀ (1 − h η₀/(2 r₀²)). Where that guess is close
// (fp32 and fp64, a step of a small part of an orbit, as in a planetary system: Halley's step
// from it moves X by at most 10⁻⁴ X), the G's are evaluated once: Halley's step, the G's carried
// to its X by their Taylor series (dG_k/dX = G_{k−1}, dG₀/dX = −β G₁; to third order, an error
// (ΔX/X)⁴ βX²/4 ≤ 10⁻¹⁷), Newton's step there (from Halley's error ~10⁻¹² to below the unit
// roundoff) and the G's carried again. Elsewhere by Newton's method from the guess; where
// its first step moves X by more than 1 % of a period's X (2π/√β), by the Laguerre–Conway
// iteration from the mean-motion guess X = β h/μ (Conway, Celest. Mech. 39, 199, 1986); and where
// neither repeats a value within its iterations, by bisection of a bracket that always holds the
// root (h(X) increases: r > 0), so the drift never fails. c_k is summed for |z| ≤ 0.1 and carried
// to z by c₀(4z) = 2c₀² − 1, c₁(4z) = c₀c₁, c₂(4z) = c₁²/2, c₃(4z) = (c₂ + c₀c₃)/4.
// Host code, for any real type with LaneMath (orrery/core/float128.hpp for float128).
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>
#include <utility>

#include "orrery/core/hd_math.hpp"

namespace orrery {

namespace kepler_drift_detail {

// Terms of the Stumpff series for |z| ≤ 0.1: 0.1^J/(2J+3)! below the type's unit roundoff.
template <class Real>
constexpr int series_terms() {
  if constexpr (std::is_same_v<Real, float>) return 5;
  else if constexpr (std::is_same_v<Real, double>) return 8;
  else return 13;
}

// 1/k! for k = 0 … 2J + 3, in the type's own precision (each the last divided by k, rounded as
// at run time; a constant, so the lanes of a vectorised loop read it without a guard).
template <class Real>
inline constexpr std::array<Real, 2 * series_terms<Real>() + 4> kInverseFactorials = [] {
  std::array<Real, 2 * series_terms<Real>() + 4> t{};
  t[0] = Real(1);
  for (std::size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1] / Real(static_cast<int>(k));
  return t;
}();

// The type's unit roundoff, found by halving (numeric_limits knows no float128).
template <class Real>
Real unit_roundoff() {
  static const Real u = [] {
    Real e(1);
    while (Real(1) + e / Real(2) != Real(1)) e /= Real(2);
    return e;
  }();
  return u;
}

template <class Real>
Real magnitude(Real x) {
  return x < Real(0) ? -x : x;
}

// The series' coefficients 1/(2j + k)!, j = 0 … J.
template <class Real, std::size_t K>
inline constexpr std::array<Real, series_terms<Real>() + 1> kSeriesCoefficients = [] {
  std::array<Real, series_terms<Real>() + 1> a{};
  for (std::size_t j = 0; j < a.size(); ++j) a[j] = kInverseFactorials<Real>[2 * j + K];
  return a;
}();

// Σ_k a_k w^k by Estrin's scheme (pairs a_{2k} + a_{2k+1} w, then pairs of those in w², …): a
// dependency chain of log₂ N steps where Horner's has N, for the drift's latency. Written without
// loops, so that a vectorised loop around it has no inner control flow.
template <class Real, std::size_t N, std::size_t... K>
std::array<Real, (N + 1) / 2> estrin_pairs(const std::array<Real, N>& a, Real w,
                                          std::index_sequence<K...>) {
  auto pair = [&](auto k) {
    constexpr std::size_t i = 2 * decltype(k)::value;
    if constexpr (i + 1 < N) return a[i] + a[i + 1] * w;
    else return a[i];
  };
  return {pair(std::integral_constant<std::size_t, K>{})...};
}

template <class Real, std::size_t N>
Real estrin(const std::array<Real, N>& a, Real w) {
  if constexpr (N == 1) return a[0];
  else return estrin(estrin_pairs(a, w, std::make_index_sequence<(N + 1) / 2>{}), w * w);
}

// c₀ … c₃ at z by their series (|z| ≤ 0.1): c₃ = Σ_j (−z)^j/(2j+3)!, c₂ = Σ_j (−z)^j/(2j+2)!,
// j = 0 … J, and c₁ = 1 − z c₃, c₀ = 1 − z c₂.
template <class Real>
std::array<Real, 4> stumpff_series(Real z) {
  const Real c3 = estrin(kSeriesCoefficients<Real, 3>, -z);
  const Real c2 = estrin(kSeriesCoefficients<Real, 2>, -z);
  return {Real(1) - z * c2, Real(1) - z * c3, c2, c3};
}

// G₀ … G₃ at (β, X).
template <class Real>
std::array<Real, 4> stiefel_functions(Real beta, Real x) {
  Real z = beta * x * x;
  int halvings = 0;
  while (magnitude(z) > Real(0.1)) {
    z /= Real(4);
    ++halvings;
  }
  auto [c0, c1, c2, c3] = stumpff_series(z);
  for (; halvings > 0; --halvings) {
    c3 = (c2 + c0 * c3) / Real(4);
    c2 = c1 * c1 / Real(2);
    c1 = c0 * c1;
    c0 = Real(2) * c0 * c0 - Real(1);
  }
  return {c0, x * c1, x * x * c2, x * x * x * c3};
}

// The G's at X + d from those at X: their Taylor series to the given order (2 or 3).
template <int Order, class Real>
std::array<Real, 4> carried(const std::array<Real, 4>& g, Real beta, Real d) {
  const Real d2 = d * d / Real(2);
  std::array<Real, 4> c{g[0] - d * beta * g[1] - d2 * beta * g[0],
                        g[1] + d * g[0] - d2 * beta * g[1], g[2] + d * g[1] + d2 * g[0],
                        g[3] + d * g[2] + d2 * g[1]};
  if constexpr (Order == 3) {
    const Real d3 = d2 * d / Real(3);
    c[0] = c[0] + d3 * beta * beta * g[1];
    c[1] = c[1] - d3 * beta * g[0];
    c[2] = c[2] - d3 * beta * g[1];
    c[3] = c[3] + d3 * g[0];
  }
  return c;
}

}  // namespace kepler_drift_detail

namespace kepler_drift_detail {

// What the drift computes from x₀ and v₀ before it looks for X, and its second-order guess.
template <class Real>
struct KeplerStart {
  Real r0, r0_inverse, v2, beta, eta0, zeta0, X;
};

template <class Real>
KeplerStart<Real> kepler_start(const std::array<Real, 3>& x, const std::array<Real, 3>& v,
                               Real mu, Real h) {
  KeplerStart<Real> s;
  // One division: 1/r₀ serves every quotient by r₀ (the chain of operations is the drift's cost).
  s.r0 = LaneMath<Real>::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  s.r0_inverse = Real(1) / s.r0;
  s.v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  s.beta = Real(2) * mu * s.r0_inverse - s.v2;
  s.eta0 = x[0] * v[0] + x[1] * v[1] + x[2] * v[2];
  s.zeta0 = mu - s.beta * s.r0;
  const Real h_per_r0 = h * s.r0_inverse;
  s.X = h_per_r0 * (Real(1) - h_per_r0 * s.eta0 * Real(0.5) * s.r0_inverse);
  return s;
}

// Newton's step for X, written so that the large r₀ X cancels exactly.
template <class Real>
Real newton_step(const KeplerStart<Real>& s, Real h, Real X, const std::array<Real, 4>& g) {
  const Real bent = s.eta0 * g[1] + s.zeta0 * g[2];
  return (X * bent - s.eta0 * g[2] - s.zeta0 * g[3] + h) / (s.r0 + bent);
}

// x and v moved by Gauss's f and g functions from the G's at the root.
template <class Real>
void finish_drift(std::array<Real, 3>& x, std::array<Real, 3>& v, Real mu, Real h,
                  const KeplerStart<Real>& s, const std::array<Real, 4>& g) {
  const Real r_inverse = Real(1) / (s.r0 + s.eta0 * g[1] + s.zeta0 * g[2]);
  const Real f_minus_1 = -mu * g[2] * s.r0_inverse;
  const Real gg = h - mu * g[3];
  const Real fdot = -mu * g[1] * s.r0_inverse * r_inverse;
  const Real gdot_minus_1 = -mu * g[2] * r_inverse;
  const std::array<Real, 3> x0 = x, v0 = v;
  for (int k = 0; k < 3; ++k) {
    x[k] += f_minus_1 * x0[k] + gg * v0[k];
    v[k] += fdot * x0[k] + gdot_minus_1 * v0[k];
  }
}

// The drift where the guess is close, without a branch (so that lanes of a vectorised loop can
// run it, kepler_drift_lanes.hpp): x and v are moved, and `close` says whether they may be kept —
// whether Halley's step from the guess is at most 10⁻⁴ X (fp32, fp64); g are the G's at the guess.
template <class Real>
bool close_guess_drift(std::array<Real, 3>& x, std::array<Real, 3>& v, Real mu, Real h,
                       const KeplerStart<Real>& s, std::array<Real, 4> g) {
  constexpr Real kCloseGuess = Real(1e-4);
  Real X = s.X;
  const Real f = s.r0 * X + s.eta0 * g[2] + s.zeta0 * g[3] - h;
  const Real fp = s.r0 + s.eta0 * g[1] + s.zeta0 * g[2];
  const Real fpp = s.eta0 * g[0] + s.zeta0 * g[1];
  const Real halley = -Real(2) * f * fp / (Real(2) * fp * fp - f * fpp);
  const bool close = magnitude(halley) <= kCloseGuess * magnitude(X);
  g = carried<3>(g, s.beta, halley);
  X = X + halley;
  const Real step = newton_step(s, h, X, g) - X;
  g = carried<2>(g, s.beta, step);
  finish_drift(x, v, mu, h, s, g);
  return close;
}

}  // namespace kepler_drift_detail

// Moves (x, v), relative to the mass μ > 0, along its conic by h (either sign).
template <class Real>
void kepler_drift(std::array<Real, 3>& x, std::array<Real, 3>& v, Real mu, Real h) {
  using namespace kepler_drift_detail;
  using M = LaneMath<Real>;
  constexpr int kNewtonIterations = 32, kLaguerreIterations = 64;
  constexpr Real kTwoPi = static_cast<Real>(2 * std::numbers::pi);
  if (h == Real(0)) return;
  const KeplerStart<Real> s = kepler_start(x, v, mu, h);
  const Real r0 = s.r0, v2 = s.v2, beta = s.beta, eta0 = s.eta0, zeta0 = s.zeta0;
  // h(X) − h, and the distance r(X) = its derivative.
  auto residual = [&](const std::array<Real, 4>& g, Real X) {
    return r0 * X + eta0 * g[2] + zeta0 * g[3] - h;
  };
  auto newton = [&](Real X, const std::array<Real, 4>& g) { return newton_step(s, h, X, g); };
  Real X = s.X;
  std::array<Real, 4> g = stiefel_functions(beta, X);
  if constexpr (std::is_same_v<Real, float> || std::is_same_v<Real, double>) {
    std::array<Real, 3> xc = x, vc = v;
    if (close_guess_drift(xc, vc, mu, h, s, g)) {
      x = xc, v = vc;
      return;
    }
  }
  const Real x_per_period = beta > Real(0) ? kTwoPi / M::sqrt(beta) : Real(0);
  bool converged = false;
  Real first = newton(X, g);
  if (beta > Real(0) && magnitude(first - X) > Real(0.01) * x_per_period) {
    // Laguerre–Conway (n = 5): converges from far away, where Newton's method may cycle.
    X = beta * h / mu;
    std::array<Real, kLaguerreIterations> seen{};
    for (int k = 0; k < kLaguerreIterations && !converged; ++k) {
      const std::array<Real, 4> g = stiefel_functions(beta, X);
      const Real f = residual(g, X);
      const Real fp = r0 + eta0 * g[1] + zeta0 * g[2];
      const Real fpp = eta0 * g[0] + zeta0 * g[1];
      const Real root = M::sqrt(magnitude(Real(16) * fp * fp - Real(20) * f * fpp));
      X = X - Real(5) * f / (fp + root);
      for (int j = 0; j < k; ++j) converged = converged || seen[j] == X;
      seen[k] = X;
      if (!(X == X)) break;
    }
  } else {
    Real previous = X, before = static_cast<Real>(std::numeric_limits<double>::quiet_NaN());
    X = first;
    for (int k = 0; k < kNewtonIterations && !converged && X == X; ++k) {
      before = previous;
      previous = X;
      X = newton(X, stiefel_functions(beta, X));
      converged = X == previous || X == before;
    }
  }
  if (!converged) {
    // A bracket of the root: one period's X for an ellipse; for any conic dh/dX = r lies
    // between the pericentre q and r₀ + v_q |h|, so X lies between h/(r₀ + v_q |h|) and h/q.
    Real lo, hi;
    if (beta > Real(0)) {
      const Real periods = h * beta * M::sqrt(beta) / (kTwoPi * mu);
      lo = x_per_period * static_cast<Real>(std::floor(static_cast<double>(periods)));
      hi = lo + x_per_period;
    } else {
      const Real l2 = r0 * r0 * v2 - eta0 * eta0;  // |x × v|²
      const Real q = l2 / mu / (Real(1) + M::sqrt(Real(1) - l2 * beta / (mu * mu)));
      const Real vq = M::sqrt(l2) / q;
      lo = h / (magnitude(vq * h) + r0);
      hi = h / q;
      if (h < Real(0)) std::swap(lo, hi);
    }
    const Real tolerance = unit_roundoff<Real>();
    // Each halving gains a bit; 500 cover float128's range of exponents and digits.
    constexpr int kMostHalvings = 500;
    X = (lo + hi) / Real(2);
    for (int k = 0; k < kMostHalvings && magnitude(hi - lo) > magnitude(hi + lo) * tolerance;
         ++k) {
      const Real res = residual(stiefel_functions(beta, X), X);
      // Beyond the root on the far side from 0 the functions overflow: that side is too far.
      if (res > Real(0) || (!(res == res) && X > Real(0))) hi = X;
      else lo = X;
      X = (lo + hi) / Real(2);
    }
  }
  finish_drift(x, v, mu, h, s, stiefel_functions(beta, X));
}

}  // namespace orrery
