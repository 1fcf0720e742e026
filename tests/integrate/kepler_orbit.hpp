// SPDX-License-Identifier: MIT
// The analytic Kepler orbit, the reference solution of the integrator tests. The relative vector
// r = x₂ − x₁ of two bodies obeys r'' = −μ r/|r|³ (μ = G(m₁ + m₂)); with the pericentre on the
// +x axis at t = 0 and motion counter-clockwise (Murray & Dermott, "Solar System Dynamics", §2.4):
//
//   M = n t = E − e sin E,   n = √(μ/a³)
//   r = (a (cos E − e), b sin E),           b = a √(1 − e²)
//   v = (−a n sin E, b n cos E) / (1 − e cos E)
//
// Kepler's equation is solved by Newton's method (quadratic convergence from E₀ = M + e sin M).
#pragma once

#include <cmath>
#include <numbers>

#include "orrery/core/float128.hpp"
#include "orrery/core/vec3.hpp"
#include "orrery/integrate/runge_kutta/register_stepper.hpp"

namespace orrery::test {

inline double sin_of(double x) { return std::sin(x); }
inline double cos_of(double x) { return std::cos(x); }
inline double abs_of(double x) { return std::fabs(x); }
inline float128 sin_of(float128 x) { return sinq(x); }
inline float128 cos_of(float128 x) { return cosq(x); }
inline float128 abs_of(float128 x) { return fabsq(x); }
template <class Real>
Real pi_of() {
  if constexpr (std::is_same_v<Real, float128>)
    return strtoflt128("3.14159265358979323846264338327950288", nullptr);
  else
    return std::numbers::pi_v<Real>;
}

template <class Real>
struct KeplerOrbit {
  Real a = 1, e = Real(0.5), mu = 1;

  Real mean_motion() const { return sqrt(mu / (a * a * a)); }
  Real period() const { return 2 * pi_of<Real>() / mean_motion(); }

  void state_at(Real t, Vec3<Real>& r, Vec3<Real>& v) const {
    const Real n = mean_motion();
    const Real mean_anomaly = n * t;
    Real E = mean_anomaly + e * sin_of(mean_anomaly);
    for (int i = 0; i < 60; ++i) {
      const Real dE = (E - e * sin_of(E) - mean_anomaly) / (1 - e * cos_of(E));
      E -= dE;
      if (abs_of(dE) < Real(1e-40)) break;
    }
    const Real b = a * sqrt(1 - e * e);
    const Real denom = 1 - e * cos_of(E);
    r = {a * (cos_of(E) - e), b * sin_of(E), Real(0)};
    v = {-a * n * sin_of(E) / denom, b * n * cos_of(E) / denom, Real(0)};
  }
};

// Two bodies of mass 1/2 (G = 1, μ = 1) about their resting centre of mass: x₁ = −r/2, x₂ = r/2.
// The masses are powers of two, so PairwiseGravity and the direct engine give the same bits.
inline constexpr double kKeplerMass = 0.5;

template <class Real>
BodyState<Real, 2> kepler_bodies(const KeplerOrbit<Real>& orbit, Real t = 0) {
  Vec3<Real> r, v;
  orbit.state_at(t, r, v);
  const Real half(0.5);
  BodyState<Real, 2> s;
  s.x[0] = Real(-0.5) * r;
  s.x[1] = half * r;
  s.v[0] = Real(-0.5) * v;
  s.v[1] = half * v;
  return s;
}

// √(|Δr|² + |Δv|²) of the relative motion against the analytic orbit at time t.
template <class Real>
Real kepler_error(const KeplerOrbit<Real>& orbit, const BodyState<Real, 2>& s, Real t) {
  Vec3<Real> r, v;
  orbit.state_at(t, r, v);
  const Vec3<Real> dr = (s.x[1] - s.x[0]) - r;
  const Vec3<Real> dv = (s.v[1] - s.v[0]) - v;
  return sqrt(norm2(dr) + norm2(dv));
}

}  // namespace orrery::test
