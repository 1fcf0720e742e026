// SPDX-License-Identifier: MIT
// Elements → state → elements over a grid of (e, inc, Ω, ω, f), elliptic and hyperbolic,
// including nearly circular, nearly planar and retrograde orbits: the elements that are defined
// come back (the node only off the plane, the pericentre only off the circle, the longitudes ϖ,
// θ, l always where they are defined), and the state made again from the elements read is the
// state (which holds for every orbit, however degenerate its angles). Also: the place of the body
// given as f, M, E, l, θ or T gives one state; the primaries (Jacobi, a body, the barycentre);
// and every refusal names its parameter.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orbit_system.hpp"
#include "orrery/core/error.hpp"
#include "orrery/physics/kepler_equation.hpp"

namespace orrery {
namespace {

using std::numbers::pi;

// The state from the elements read back, relative to |r| and |v|: a few dozen roundings, each
// amplified at most by 1/e where the pericentre direction comes from the eccentricity vector
// (e ≥ 10⁻⁶ on the grid, or exactly 0), and by 1/|1 − e| for a nearly parabolic orbit.
constexpr double kStateTolerance = 1e-9;
// a, e, inc and the angles that are defined, absolute; the 1/e amplification of the pericentre's
// angles is accounted for separately, and inclinations near 0 or π lose half their digits to acos
// (an error of √ε ≈ 1.5·10⁻⁸ at worst).
constexpr double kElementTolerance = 1e-11;
constexpr double kAcosTolerance = 3e-8;
// An element of a well-conditioned orbit (e ≤ 0.3, a of order 1) read back after one conversion
// each way: rounding of a few dozen operations on numbers of order 1.
constexpr double kWellConditioned = 1e-13;

double angle_difference(double x, double y) { return std::remainder(x - y, 2 * pi); }

struct Case {
  double a, e, inc, Omega, omega, f;
};

std::vector<Case> grid() {
  std::vector<Case> cases;
  const double incs[] = {0.0, 1e-12, 1e-5, 0.3, pi / 2, 2.5, pi - 1e-12, pi};
  const double angles[] = {0.1, 2.0, 4.0, 6.1};
  for (double e : {0.0, 1e-10, 1e-6, 0.1, 0.5, 0.9, 0.99, 0.999})
    for (double inc : incs)
      for (double Omega : angles)
        for (double omega : angles)
          for (double f : angles) cases.push_back({1.7, e, inc, Omega, omega, f});
  for (double e : {1.0001, 1.5, 3.0, 10.0})
    for (double inc : incs)
      for (double Omega : angles)
        for (double omega : angles)
          for (double s : {-0.95, -0.3, 0.0, 0.6, 0.95})
            cases.push_back({-2.3, e, inc, Omega, omega, s * std::acos(-1.0 / e)});
  return cases;
}

const PointMass kStar{.mass = 1.3, .position = {0.1, -0.2, 0.3}, .velocity = {0.01, 0.02, -0.03}};

TEST(OrbitRoundTrip, ElementsStateElements) {
  const double g = 0.7, m = 2e-3;
  int compared = 0;
  for (const Case& c : grid()) {
    SCOPED_TRACE(::testing::Message() << "a " << c.a << " e " << c.e << " inc " << c.inc << " Omega "
                                      << c.Omega << " omega " << c.omega << " f " << c.f);
    const PointMass b = body_from_elements(g, kStar, m, c.a, c.e, c.inc, c.Omega, c.omega, c.f);
    const Orbit o = orbit_about(g, b, kStar);
    const bool planar = std::sin(c.inc) < 1e-8, circular = c.e < 1e-8;
    // The longitudes run the way the body goes round; at inc = π/2 either way is right, and the
    // inclination read back decides.
    const double sense = o.inc < pi / 2 ? 1.0 : -1.0;
    const double inc_tolerance = std::sin(c.inc) < 1e-3 ? kAcosTolerance : kElementTolerance;
    EXPECT_NEAR(o.a, c.a, kElementTolerance * std::abs(c.a) / std::abs(1 - c.e));
    EXPECT_NEAR(o.e, c.e, kElementTolerance);
    EXPECT_NEAR(o.inc, c.inc, inc_tolerance);
    // The pericentre's direction comes from the eccentricity vector: error ε/e.
    const double peri = kElementTolerance / std::max(c.e, 1e-300);
    const double theta = c.Omega + sense * (c.omega + c.f);
    EXPECT_NEAR(angle_difference(o.theta, theta), 0.0, planar ? kElementTolerance : inc_tolerance);
    if (!planar) {
      EXPECT_NEAR(angle_difference(o.Omega, c.Omega), 0.0, inc_tolerance);
    }
    if (!circular) {
      EXPECT_NEAR(angle_difference(o.pomega, c.Omega + sense * c.omega), 0.0, peri);
      EXPECT_NEAR(angle_difference(o.f, c.f), 0.0, peri);
      if (!planar) {
        EXPECT_NEAR(angle_difference(o.omega, c.omega), 0.0, peri + inc_tolerance);
      }
      const double E = eccentric_anomaly_of_true(c.e, c.f);
      const double M = mean_anomaly_of_eccentric(c.e, E);
      const double scale = c.e < 1 ? 1.0 : 1.0 + std::abs(M);
      EXPECT_NEAR(c.e < 1 ? angle_difference(o.E, E) : o.E - E, 0.0, peri * scale);
      EXPECT_NEAR(c.e < 1 ? angle_difference(o.M, M) : o.M - M, 0.0, peri * scale);
    } else {
      // l tends to θ: l = θ − 2e sin f for e → 0.
      EXPECT_NEAR(angle_difference(o.l, theta), 0.0, 3 * c.e + inc_tolerance);
    }
    // The state again from the elements read, in every case.
    const PointMass again =
        body_from_elements(g, kStar, m, o.a, o.e, o.inc, o.Omega, o.omega, o.f);
    const Vec3d dr = again.position - b.position, dv = again.velocity - b.velocity;
    const Vec3d r = b.position - kStar.position, v = b.velocity - kStar.velocity;
    EXPECT_LE(std::sqrt(norm2(dr)), kStateTolerance * std::sqrt(norm2(r)));
    EXPECT_LE(std::sqrt(norm2(dv)), kStateTolerance * std::sqrt(norm2(v)));
    ++compared;
  }
  EXPECT_GT(compared, 4000);
}

// One place of the body given six ways is one state.
TEST(OrbitRoundTrip, EveryPlaceGivesTheSameBody) {
  for (double e : {0.3, 2.0}) {
    for (double inc : {0.4, 2.6}) {
      const double a = e < 1 ? 1.5 : -1.5, Omega = 0.7, omega = 1.9, f = 0.8, time = 3.0;
      const double g = 1.0;
      const PointMass b = body_from_elements(g, kStar, 1e-3, a, e, inc, Omega, omega, f);
      const Orbit o = orbit_about(g, b, kStar, time);
      const double sense = inc < pi / 2 ? 1.0 : -1.0;
      const OrbitGiven base{.a = a, .e = e, .inc = inc, .Omega = Omega, .omega = omega};
      std::vector<OrbitGiven> ways(6, base);
      ways[0].f = f;
      ways[1].M = o.M;
      ways[2].E = o.E;
      ways[3].l = o.l;
      ways[4].theta = o.theta;
      ways[5].T = o.T;
      ways.push_back(base);
      ways.back().omega.reset();
      ways.back().pomega = Omega + sense * omega;
      ways.back().f = f;
      for (std::size_t k = 0; k < ways.size(); ++k) {
        const PointMass c = body_from_orbit(g, kStar, 1e-3, ways[k], time);
        const Vec3d dr = c.position - b.position;
        EXPECT_LE(std::sqrt(norm2(dr)), kStateTolerance * std::abs(a)) << e << " " << inc << " " << k;
      }
    }
  }
}

// Below e = 10⁻⁸ l is θ + (M − f) to first order in e (REBOUND's MIN_ECC branch): the O(e)
// term is kept (it is 10⁻⁹ here, 10⁴ times the tolerance), the O(e²) one is below rounding.
TEST(OrbitRoundTrip, NearlyCircularMeanLongitude) {
  const double e = 1e-9, Omega = 0.5, omega = 1.2;
  for (double inc : {0.0, 0.7, 2.4, pi}) {
    for (double f : {0.4, 1.5, 4.0}) {
      const PointMass b = body_from_elements(1.0, kStar, 1e-3, 2.0, e, inc, Omega, omega, f);
      const Orbit o = orbit_about(1.0, b, kStar);
      const double M = mean_anomaly_of_eccentric(e, eccentric_anomaly_of_true(e, f));
      const double sense = inc < pi / 2 ? 1.0 : -1.0;
      EXPECT_NEAR(angle_difference(o.l, o.theta + sense * angle_difference(M, f)), 0.0,
                  kWellConditioned)
          << inc << " " << f;
    }
  }
}

TEST(OrbitRoundTrip, Primaries) {
  orbit_test::OrbitSystem s;
  s.add(1.0);
  s.add(1e-3, OrbitGiven{.a = 1.0, .e = 0.1});
  s.add(2e-3, OrbitGiven{.a = 3.0, .e = 0.2, .inc = 0.1});
  // Jacobi: body 2 orbits the barycentre of bodies 0 and 1 with their mass.
  EXPECT_NEAR(s.orbit(2).a, 3.0, kWellConditioned);
  const PointMass jacobi = primary_of(s.p, 2, {});
  EXPECT_DOUBLE_EQ(jacobi.mass, 1.001);
  // Heliocentric: about body 0 alone the elements differ by O(m₁/M).
  const Orbit helio = s.orbit(2, {PrimaryKind::body, 0});
  EXPECT_GT(std::abs(helio.a - 3.0), 1e-5);
  EXPECT_LT(std::abs(helio.a - 3.0), 0.05);
  // Added about body 0, read about body 0.
  s.add(1e-3, OrbitGiven{.a = 5.0, .e = 0.3, .f = 1.0}, {PrimaryKind::body, 0});
  EXPECT_NEAR(s.orbit(3, {PrimaryKind::body, 0}).a, 5.0, kWellConditioned);
  EXPECT_NEAR(s.orbit(3, {PrimaryKind::body, 0}).f, 1.0, kWellConditioned);
  // The barycentre of everything: REBOUND's primary=sim.com(), total mass.
  EXPECT_DOUBLE_EQ(primary_of(s.p, 1, {PrimaryKind::barycentre}).mass, 1.0 + 1e-3 + 2e-3 + 1e-3);
  for (const Primary bad : {Primary{PrimaryKind::body, 7}, Primary{PrimaryKind::body, 2}}) {
    try {
      s.orbit(2, bad);
      ADD_FAILURE() << "no refusal of body " << bad.body;
    } catch (const ParameterError& err) {
      EXPECT_EQ(err.parameter(), "primary");
    }
  }
}

template <class F>
std::string refused(F f) {
  try {
    f();
  } catch (const ParameterError& err) {
    return err.parameter() + ": " + err.value();
  }
  return "not refused";
}

TEST(OrbitRoundTrip, RefusalsNameTheValue) {
  const auto from = [](double a, double e, double f) {
    return [=] { body_from_elements(1.0, kStar, 1e-3, a, e, 0.0, 0.0, 0.0, f); };
  };
  EXPECT_EQ(refused(from(1.0, 1.0, 0.0)), "e: 1");
  EXPECT_EQ(refused(from(1.0, -0.5, 0.0)), "e: -0.5");
  EXPECT_EQ(refused(from(1.0, 1.5, 0.0)), "a: 1 with e = 1.5");
  EXPECT_EQ(refused(from(-1.0, 0.5, 0.0)), "a: -1 with e = 0.5");
  EXPECT_EQ(refused(from(0.0, 0.5, 0.0)), "a: 0");
  EXPECT_EQ(refused(from(-1.0, 2.0, 2.1)), "f: 2.1");  // acos(−1/2) = 2.094
  EXPECT_EQ(refused(from(-1.0, 2.0, NAN)), "f: nan");
  PointMass massless = kStar;
  massless.mass = 0.0;
  EXPECT_EQ(refused([&] { body_from_elements(1.0, massless, 1e-3, 1, 0, 0, 0, 0, 0); }),
            "primary: a mass of 0");
  EXPECT_EQ(refused([&] { orbit_about(1.0, kStar, massless); }), "primary: a mass of 0");
  EXPECT_EQ(refused([&] { orbit_about(1.0, kStar, kStar); }), "body: at the position of its primary");
  EXPECT_EQ(refused([&] { orbit_about(0.0, kStar, massless); }), "G: 0");
  EXPECT_EQ(refused([] { body_from_orbit(1.0, kStar, 1e-3, {.P = -2.0}); }), "P: -2");
  EXPECT_EQ(refused([] { body_from_orbit(1.0, kStar, 1e-3, {.e = 0.1}); }), "a: none given");
  EXPECT_EQ(refused([] { body_from_orbit(1.0, kStar, 1e-3, {.a = 1, .M = 1, .T = 2}); }),
            "f, M, E, l, theta, T: M, T");
}

}  // namespace
}  // namespace orrery
