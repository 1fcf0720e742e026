// SPDX-License-Identifier: MIT
// The universal-variable Kepler drift (physics/kepler_drift.hpp) against the conic of the
// orbital elements (M advanced by n h, physics/orbital_elements.hpp), for ellipses from circular
// to e = 0.999 and hyperbolae, steps from a thousandth of a period to many periods, forwards and
// backwards; and in float128, to float128's rounding.
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "integrate/kepler_lanes.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/physics/kepler_drift.hpp"
#include "orrery/physics/orbital_elements.hpp"

namespace orrery {
namespace {

// A drift is a few dozen operations on numbers of the size of the orbit; its error against the
// conic, relative to the orbit's size, stays within some thousand roundings of fp64 even at
// e = 0.999 from pericentre (2.4·10⁻¹²: the state there is ill-conditioned, for the drift and
// for the elements that give the reference alike) and over many periods.
constexpr double kDriftTolerance = 5e-12;

PointMass at_mean_anomaly(double mu, double a, double e, double mean_anomaly) {
  const PointMass primary{.mass = mu};
  OrbitGiven given{.a = a, .e = e, .inc = 0.7, .Omega = 0.4, .omega = 2.1, .M = mean_anomaly};
  return body_from_orbit(1.0, primary, 0.0, given);
}

TEST(KeplerDrift, FollowsTheConicForAnyStep) {
  const double mu = 1.3;
  struct Case {
    double a, e;
  };
  for (const Case c : {Case{1.0, 0.0}, Case{1.0, 0.3}, Case{2.0, 0.9}, Case{1.0, 0.999},
                       Case{-1.0, 1.5}, Case{-0.2, 5.0}}) {
    const double n = std::sqrt(mu / std::abs(c.a * c.a * c.a));
    const double period = 2 * std::numbers::pi / n;
    for (const double fraction : {1e-3, 0.25, 0.5, 0.99, 7.3, -0.37, -2.2}) {
      for (const double m0 : {0.0, 1.0, 3.0}) {
        SCOPED_TRACE(testing::Message() << "a " << c.a << " e " << c.e << " h/P " << fraction
                                        << " M0 " << m0);
        const double h = fraction * period;
        // A hyperbola runs out to large r: compare within a few units of M of the pericentre.
        if (c.e > 1 && std::abs(m0 + n * h) > 20) continue;
        const PointMass start = at_mean_anomaly(mu, c.a, c.e, m0);
        const PointMass end = at_mean_anomaly(mu, c.a, c.e, m0 + n * h);
        std::array<double, 3> x{start.position.x, start.position.y, start.position.z};
        std::array<double, 3> v{start.velocity.x, start.velocity.y, start.velocity.z};
        kepler_drift(x, v, mu, h);
        const double scale = std::abs(c.a) * (1 + c.e);
        const double speed = std::sqrt(mu / (std::abs(c.a) * std::abs(1 - c.e)));
        EXPECT_NEAR(x[0], end.position.x, kDriftTolerance * scale);
        EXPECT_NEAR(x[1], end.position.y, kDriftTolerance * scale);
        EXPECT_NEAR(x[2], end.position.z, kDriftTolerance * scale);
        EXPECT_NEAR(v[0], end.velocity.x, kDriftTolerance * speed);
        EXPECT_NEAR(v[1], end.velocity.y, kDriftTolerance * speed);
        EXPECT_NEAR(v[2], end.velocity.z, kDriftTolerance * speed);
      }
    }
  }
}

TEST(KeplerDrift, AVeryFastBodyIsSlowedByGravity) {
  // REBOUND's test_whfast_veryhyperbolic: v = 10⁵ at r = 1 about μ = 1 for h = 1.234567. Gravity
  // takes 10⁻⁵ off the speed within the first few units of distance, so the body ends 1.2·10⁻⁵
  // short of the straight line (relative 10⁻¹⁰): y = 123456.69998765713 by a 2·10⁷-step RK4 in
  // long double. REBOUND asks for the straight line to 10⁻¹⁵, which only a drift that gives up
  // on the orbit (its solver's NaN fallback) meets; here the orbit is followed.
  std::array<double, 3> x{1.0, 0.0, 0.0}, v{0.0, 1e5, 0.0};
  kepler_drift(x, v, 1.0, 1.234567);
  constexpr double kHyperbolaTolerance = 1e-13;
  const double exact = 123456.69998765713;
  EXPECT_NEAR((x[1] - exact) / exact, 0.0, kHyperbolaTolerance);
  EXPECT_TRUE(std::isfinite(x[0]) && std::isfinite(v[0]) && std::isfinite(v[1]));
}

TEST(KeplerDrift, Float128ReturnsToItsStartAfterWholePeriods) {
  // μ = 1, a = 1: P = 2π. Forward by 3 periods and back by 2.5, then back 0.5: the start again,
  // to float128's rounding (an fp64 series or bracket would leave 10⁻¹⁶).
  constexpr double kQuadTolerance = 1e-28;
  const PointMass s = at_mean_anomaly(1.0, 1.0, 0.6, 0.4);
  std::array<float128, 3> x{s.position.x, s.position.y, s.position.z};
  std::array<float128, 3> v{s.velocity.x, s.velocity.y, s.velocity.z};
  const float128 period = 2 * acosq(float128(-1));
  kepler_drift<float128>(x, v, 1, 3 * period);
  kepler_drift<float128>(x, v, 1, float128(-2.5) * period);
  kepler_drift<float128>(x, v, 1, float128(-0.5) * period);
  EXPECT_NEAR(static_cast<double>(x[0] - float128(s.position.x)), 0.0, kQuadTolerance);
  EXPECT_NEAR(static_cast<double>(x[1] - float128(s.position.y)), 0.0, kQuadTolerance);
  EXPECT_NEAR(static_cast<double>(v[2] - float128(s.velocity.z)), 0.0, kQuadTolerance);
}

TEST(KeplerDrift, SimdLanesGiveEachBodyTheBitsOfItsDriftAlone) {
  // 203 bodies (25 whole vectors of 8 and a part), e from 0 to 0.9 and a from 0.5 to 40 about
  // masses from 0.5 to 2, one step of 0.3: short against most orbits (the lanes move them),
  // beyond 5 % of the innermost ones (the lanes leave them to the scalar drift, marked far).
  // Either way each ends with the bits kepler_drift gives it alone.
  const std::size_t n = 203;
  constexpr double kStep = 0.3;
  std::vector<double> x(n), y(n), z(n), vx(n), vy(n), vz(n), mu(n);
  std::vector<std::uint64_t> far(n);
  std::vector<std::array<double, 6>> alone(n);
  for (std::size_t k = 0; k < n; ++k) {
    mu[k] = 0.5 + 1.5 * static_cast<double>(k % 7) / 6;
    const double a = 0.5 * std::pow(80.0, static_cast<double>(k) / (n - 1));
    const PointMass b = at_mean_anomaly(mu[k], a, 0.9 * static_cast<double>(k % 10) / 9,
                                        0.37 * static_cast<double>(k));
    x[k] = b.position.x, y[k] = b.position.y, z[k] = b.position.z;
    vx[k] = b.velocity.x, vy[k] = b.velocity.y, vz[k] = b.velocity.z;
    std::array<double, 3> p{x[k], y[k], z[k]}, v{vx[k], vy[k], vz[k]};
    kepler_drift(p, v, mu[k], kStep);
    alone[k] = {p[0], p[1], p[2], v[0], v[1], v[2]};
  }
  const cpu::KeplerBodies bodies{x.data(),  y.data(),  z.data(),  vx.data(),
                                 vy.data(), vz.data(), mu.data(), far.data()};
  cpu::widest_kepler_lanes().drifts_f64(bodies, 0, n, kStep);
  std::size_t in_lanes = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (far[k]) {
      std::array<double, 3> p{x[k], y[k], z[k]}, v{vx[k], vy[k], vz[k]};
      kepler_drift(p, v, mu[k], kStep);
      x[k] = p[0], y[k] = p[1], z[k] = p[2], vx[k] = v[0], vy[k] = v[1], vz[k] = v[2];
    } else {
      ++in_lanes;
    }
    const std::array<double, 6> got{x[k], y[k], z[k], vx[k], vy[k], vz[k]};
    EXPECT_EQ(got, alone[k]) << k;
  }
  // Both ways were taken.
  EXPECT_GT(in_lanes, n / 2);
  EXPECT_LT(in_lanes, n);
}

}  // namespace
}  // namespace orrery
