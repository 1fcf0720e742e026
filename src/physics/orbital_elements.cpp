// SPDX-License-Identifier: MIT
// Orbital elements ↔ Cartesian state (Murray & Dermott 1999, §2.5–2.8, Eq. 2.122); the
// equations and REBOUND's conventions this follows are written in
// include/orrery/physics/orbital_elements.hpp.
#include "orrery/physics/orbital_elements.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/physics/kepler_equation.hpp"

namespace orrery {

namespace {

constexpr double kPi = std::numbers::pi;
// Below this inclination (or above π minus it) the node is too ill defined to measure angles
// from: the broken angles ϖ and θ then equal the unbroken ones to machine precision (REBOUND's
// MIN_INC).
constexpr double kPlanarInclination = 1e-8;
// Below this eccentricity the O(e²) terms of M − f are below machine precision, so l is taken
// from θ to first order in e (REBOUND's MIN_ECC).
constexpr double kCircularEccentricity = 1e-8;

std::string number(double x) { return fmt::format("{}", x); }

void require_finite(const char* name, double x) {
  if (!std::isfinite(x)) throw ParameterError(name, number(x), "a finite number");
}

void require_gravity(double g, const PointMass& primary) {
  if (!(g > 0.0) || !std::isfinite(g))
    throw ParameterError("G", number(g), "a finite gravitational constant > 0");
  if (!(primary.mass > 0.0) || !std::isfinite(primary.mass))
    throw ParameterError("primary", "a mass of " + number(primary.mass),
                         "a primary of finite mass > 0 (the orbit's mu is G (M + m))");
}

Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// acos(num / den) taken in (−π, 0) where `side` < 0: the sign of a component the cosine does not
// see tells the half. Where rounding puts |num / den| at or beyond 1 the angle is 0 or π, and 0
// where den = 0 (an angle measured from an undefined direction).
double angle_between(double num, double den, double side) {
  const double c = num / den;
  if (c > -1.0 && c < 1.0) return side < 0.0 ? -std::acos(c) : std::acos(c);
  return c <= -1.0 ? kPi : 0.0;
}

// The one of f, M, E, l, θ, T given (at most one: ParameterError otherwise).
void require_one_place(const OrbitGiven& g) {
  std::string given;
  int count = 0;
  for (auto [name, value] : {std::pair{"f", &g.f}, {"M", &g.M}, {"E", &g.E}, {"l", &g.l},
                             {"theta", &g.theta}, {"T", &g.T}}) {
    if (!value->has_value()) continue;
    given += (count++ ? ", " : "") + std::string(name);
  }
  if (count > 1)
    throw ParameterError("f, M, E, l, theta, T", given,
                         "at most one of them: the body's place on its orbit");
}

}  // namespace

PointMass body_from_elements(double g, const PointMass& primary, double mass, double a, double e,
                             double inc, double Omega, double omega, double f) {
  require_gravity(g, primary);
  if (!(mass >= 0.0) || !std::isfinite(mass))
    throw ParameterError("mass", number(mass), "a finite mass >= 0");
  for (auto [name, value] : {std::pair{"a", a}, {"e", e}, {"inc", inc}, {"Omega", Omega},
                             {"omega", omega}, {"f", f}})
    require_finite(name, value);
  if (e == 1.0)
    throw ParameterError("e", "1", "e != 1: a parabola has no semi-major axis (an ellipse has "
                                   "0 <= e < 1 and a > 0, a hyperbola e > 1 and a < 0)");
  if (e < 0.0) throw ParameterError("e", number(e), "an eccentricity >= 0");
  if (a == 0.0)
    throw ParameterError("a", "0", "a semi-major axis > 0 (ellipse) or < 0 (hyperbola)");
  if (e > 1.0 && a > 0.0)
    throw ParameterError("a", fmt::format("{} with e = {}", a, e),
                         "a < 0 for a hyperbola (e > 1); a bound orbit (a > 0) has e < 1");
  if (e < 1.0 && a < 0.0)
    throw ParameterError("a", fmt::format("{} with e = {}", a, e),
                         "a > 0 for an ellipse (e < 1); an unbound orbit (a < 0) has e > 1");
  const double cf = std::cos(f), sf = std::sin(f);
  if (!(1.0 + e * cf > 0.0))
    throw ParameterError("f", number(f),
                         fmt::format("a true anomaly within the asymptotes of the hyperbola of "
                                     "e = {}: |f| < acos(-1/e) = {} (modulo 2 pi)",
                                     e, std::acos(-1.0 / e)));

  const double mu = g * (primary.mass + mass);
  const double p = a * ((1.0 - e) * (1.0 + e));  // the semi-latus rectum, > 0 for both conics
  const double r = p / (1.0 + e * cf);
  const double v0 = std::sqrt(mu / p);
  const double cO = std::cos(Omega), sO = std::sin(Omega);
  const double co = std::cos(omega), so = std::sin(omega);
  const double ci = std::cos(inc), si = std::sin(inc);
  // Towards the pericentre (P) and 90° ahead of it in the direction of motion (Q).
  const Vec3d toward_pericentre{cO * co - sO * so * ci, sO * co + cO * so * ci, so * si};
  const Vec3d ahead{-cO * so - sO * co * ci, -sO * so + cO * co * ci, co * si};
  PointMass body;
  body.mass = mass;
  body.position = primary.position + r * (cf * toward_pericentre + sf * ahead);
  body.velocity = primary.velocity + v0 * ((e + cf) * ahead - sf * toward_pericentre);
  return body;
}

PointMass body_from_orbit(double g, const PointMass& primary, double mass, const OrbitGiven& given,
                          double time) {
  for (auto [name, value] :
       {std::pair{"a", &given.a}, {"P", &given.P}, {"e", &given.e}, {"inc", &given.inc},
        {"Omega", &given.Omega}, {"omega", &given.omega}, {"pomega", &given.pomega},
        {"f", &given.f}, {"M", &given.M}, {"E", &given.E}, {"l", &given.l},
        {"theta", &given.theta}, {"T", &given.T}})
    if (value->has_value()) require_finite(name, **value);
  require_finite("time", time);
  require_gravity(g, primary);
  if (!(mass >= 0.0) || !std::isfinite(mass))
    throw ParameterError("mass", number(mass), "a finite mass >= 0");
  if (!given.a && !given.P)
    throw ParameterError("a", "none given", "a semi-major axis a or a period P (one of the two)");
  if (given.a && given.P)
    throw ParameterError("P", fmt::format("{} with a = {}", *given.P, *given.a),
                         "either a or P, not both");
  if (given.omega && given.pomega)
    throw ParameterError("pomega", fmt::format("{} with omega = {}", *given.pomega, *given.omega),
                         "either omega or pomega, not both");
  require_one_place(given);

  const double mu = g * (primary.mass + mass);
  double a = 0.0;
  if (given.P) {
    if (!(*given.P > 0.0))
      throw ParameterError("P", number(*given.P),
                           "a period > 0 (a hyperbola has none: give its a < 0)");
    a = std::cbrt(*given.P * *given.P * mu / (4.0 * kPi * kPi));  // Kepler's third law
  } else {
    a = *given.a;
  }
  const double e = given.e.value_or(0.0), inc = given.inc.value_or(0.0);
  const double Omega = given.Omega.value_or(0.0);
  // The longitudes are measured the way the body goes round (REBOUND's convention).
  const bool prograde = std::cos(inc) > 0.0;
  double omega = given.omega.value_or(0.0);
  if (given.pomega) omega = prograde ? *given.pomega - Omega : Omega - *given.pomega;

  double f = given.f.value_or(0.0);
  std::optional<double> mean = given.M;
  if (given.theta) f = prograde ? *given.theta - Omega - omega : Omega - omega - *given.theta;
  if (given.l) mean = prograde ? *given.l - Omega - omega : Omega - omega - *given.l;
  if (given.T) mean = std::sqrt(mu / std::abs(a * a * a)) * (time - *given.T);
  if (given.E) f = true_anomaly_of_eccentric(e, *given.E);
  if (mean) f = true_anomaly_of_eccentric(e, eccentric_anomaly(e, *mean));
  return body_from_elements(g, primary, mass, a, e, inc, Omega, omega, f);
}

Orbit orbit_about(double g, const PointMass& body, const PointMass& primary, double time) {
  require_gravity(g, primary);
  const double mu = g * (primary.mass + body.mass);
  const Vec3d r = body.position - primary.position;
  const Vec3d v = body.velocity - primary.velocity;
  Orbit o{};
  o.d = std::sqrt(dot(r, r));
  if (!(o.d > 0.0))
    throw ParameterError("body", "at the position of its primary",
                         "a body apart from its primary (its orbit then has elements)");
  const double v2 = dot(v, v);
  o.v = std::sqrt(v2);
  const double circular2 = mu / o.d;
  o.a = -mu / (v2 - 2.0 * circular2);
  const Vec3d h = cross(r, v);
  o.h = std::sqrt(dot(h, h));
  const double rv = dot(r, v);
  const Vec3d ev = (1.0 / mu) * ((v2 - circular2) * r - rv * v);
  o.e = std::sqrt(dot(ev, ev));
  o.n = std::copysign(std::sqrt(mu / std::abs(o.a * o.a * o.a)), o.a);
  o.P = 2.0 * kPi / o.n;
  o.inc = angle_between(h.z, o.h, 1.0);  // in [0, π]: no side to tell
  const Vec3d node{-h.y, h.x, 0.0};      // ẑ × h
  const double nn = std::hypot(node.x, node.y);
  // Ω, ϖ and θ are measured from the x axis: the y component tells the half.
  o.Omega = angle_between(node.x, nn, node.y);

  // E in (−π, π] (receding from pericentre: r·v > 0, E > 0), and M = E − e sin E with it, so
  // that T is the pericentre passage nearest to `time`, as REBOUND's. E from both its sine and
  // cosine, e sin E = r·v / √(μa) and e cos E = 1 − r/a (from r = a (1 − e cos E), §2.4, and
  // its time derivative), keeps its digits near pericentre, where acos(cos E) alone loses half of them
  // (REBOUND takes the acos); likewise e sinh F = r·v / √(−μa) for the hyperbola.
  double ea = 0.0, mean = 0.0;
  if (o.e < 1.0) {
    ea = std::atan2(rv / std::sqrt(mu * o.a), 1.0 - o.d / o.a);
    mean = ea - o.e * std::sin(ea);
  } else {
    ea = std::asinh(rv / (o.e * std::sqrt(-mu * o.a)));
    mean = o.e * std::sinh(ea) - ea;
  }
  const bool prograde = o.inc < 0.5 * kPi;
  const double sense = prograde ? 1.0 : -1.0;
  if (o.inc < kPlanarInclination || o.inc > kPi - kPlanarInclination) {
    // Nearly planar: the node is ill defined, the position and pericentre directions are not.
    o.theta = angle_between(r.x, o.d, r.y);
    o.pomega = angle_between(ev.x, o.e, ev.y);
    o.omega = sense * (o.pomega - o.Omega);
    o.f = sense * (o.theta - o.pomega);
  } else {
    // ω + f, measured in the orbital plane from the node, is defined for any e.
    const double omega_f = angle_between(dot(node, r), nn * o.d, r.z);
    o.omega = angle_between(dot(node, ev), nn * o.e, ev.z);
    o.pomega = o.Omega + sense * o.omega;
    o.f = omega_f - o.omega;
    o.theta = o.Omega + sense * omega_f;
  }
  // Where e is too small to place the pericentre, l = θ + (M − f) with M − f = −2e sin f
  // (Murray & Dermott Eq. 2.93), which tends to θ as e → 0.
  o.l = o.e > kCircularEccentricity ? o.pomega + sense * mean
                                    : o.theta - sense * 2.0 * o.e * std::sin(o.f);
  o.T = time - mean / std::abs(o.n);

  for (double* angle : {&o.Omega, &o.omega, &o.pomega, &o.f, &o.l, &o.theta})
    *angle = wrap_two_pi(*angle);
  o.E = o.e < 1.0 ? wrap_two_pi(ea) : ea;
  o.M = o.e < 1.0 ? wrap_two_pi(mean) : mean;
  // A hyperbola's M is no angle, so neither is its l: taken from the Ω and ω reported, it gives
  // back this M (body_from_orbit: M = ±(l − Ω) − ω) rather than one 2π away.
  if (o.e >= 1.0) o.l = o.Omega + sense * (o.omega + mean);
  return o;
}

}  // namespace orrery
