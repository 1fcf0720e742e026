// SPDX-License-Identifier: MIT
// Orbital elements ↔ Cartesian state of a body about a primary (Murray & Dermott, Solar System
// Dynamics, 1999, §2.5–2.8), with μ = G (M + m), M the primary's mass and m the body's:
//   r = a (1 − e²) / (1 + e cos f)                                          (Eq. 2.20)
//   X = r [cos Ω cos(ω + f) − sin Ω sin(ω + f) cos i]
//   Y = r [sin Ω cos(ω + f) + cos Ω sin(ω + f) cos i]                      (Eq. 2.122)
//   Z = r sin(ω + f) sin i
// and the velocity, the orbital plane's (Eq. 2.36: ṙ along r̂ and r ḟ along θ̂, with
// v₀ = √(μ / (a (1 − e²)))) turned by the same three rotations (§2.8):
//   V = v₀ [(e + cos f) q̂ − sin f p̂],   p̂, q̂ the unit vectors to the pericentre and 90° ahead.
// Back from the state (§2.8): a = −μ / (v² − 2μ/r) (vis-viva), h = r × v, the eccentricity
// vector e = ((v² − μ/r) r − (r·v) v) / μ, the node n = ẑ × h, and the angles between them. The conventions (which angle is measured from where, the retrograde
// and nearly circular or planar cases, T) are REBOUND's (Rein & Liu 2012; src/tools.c,
// reb_particle_from_fmt and reb_orbit_from_particle), so that a REBOUND user reads the same
// numbers:
//   - angles in radians; inc in [0, π] (inc > π/2 retrograde); Ω, ω, ϖ, f, θ, l in [0, 2π);
//   - ϖ = Ω + ω and θ = Ω + ω + f, l = ϖ + M prograde; ϖ = Ω − ω, θ = Ω − ω − f, l = ϖ − M
//     retrograde (cos i < 0), the longitudes measured the way the body goes round;
//   - nearly planar (inc < 10⁻⁸ or > π − 10⁻⁸): Ω is 0 where the node is undefined, and ϖ and θ
//     come from the eccentricity and position vectors, which stay defined;
//   - nearly circular (e < 10⁻⁸): l = θ − 2e sin f (prograde; + retrograde), M − f to first
//     order in e (Eq. 2.93), so l tends to θ as e → 0;
//   - hyperbolic orbits (e > 1) have a < 0, n < 0 and P < 0; their M and E (the hyperbolic
//     anomaly F) run over the whole real line and are not reduced, nor is their l = Ω ± (ω + M);
//   - T, the time of pericentre, from M = |n| (t − T) at the time t of the state.
// Where this differs from REBOUND: REBOUND reduces the hyperbola's M and l to [0, 2π) (so that
// they no longer give the body back), and leaves Ω in (−π, π] and ϖ unreduced; here every angle
// is in [0, 2π). E is taken from its sine and cosine rather than from acos(cos E), which keeps
// its digits near pericentre.
#pragma once

#include <optional>

#include "orrery/core/vec3.hpp"

namespace orrery {

// A body or a primary: a mass with a position and a velocity.
struct PointMass {
  double mass = 0.0;
  Vec3d position{0.0, 0.0, 0.0};
  Vec3d velocity{0.0, 0.0, 0.0};
};

// The elements a user gives for a new body, as REBOUND's add() takes them: a or P; e, inc, Ω
// (0 where not given); ω or ϖ (ω = 0 where neither); one of f, M, E, l, θ, T (f = 0 where none).
struct OrbitGiven {
  std::optional<double> a, P, e, inc, Omega, omega, pomega, f, M, E, l, theta, T;
};

// The elements of a body about its primary (REBOUND's struct reb_orbit without Pal's
// coordinates and the Hill radius).
struct Orbit {
  double d;      // distance from the primary
  double v;      // speed relative to the primary
  double h;      // specific angular momentum |r × v|
  double P;      // period 2π / n (negative for a hyperbola)
  double n;      // mean motion √(μ / |a|³), negative for a hyperbola
  double a;      // semi-major axis (negative for a hyperbola)
  double e;      // eccentricity
  double inc;    // inclination to the x-y plane, [0, π]
  double Omega;  // longitude of the ascending node
  double omega;  // argument of pericentre
  double pomega; // longitude of pericentre
  double f;      // true anomaly
  double M;      // mean anomaly
  double E;      // eccentric anomaly (hyperbolic anomaly F for e > 1)
  double l;      // mean longitude
  double theta;  // true longitude
  double T;      // time of pericentre passage
};

// The body of mass m on the orbit (a, e, inc, Ω, ω, f) about `primary` (Eq. 2.122 and its
// velocity). ParameterError naming the value for e < 0, e = 1, a > 0 with e > 1, a < 0 with
// e < 1, a = 0, f beyond the asymptotes of a hyperbola (1 + e cos f ≤ 0), a primary without mass,
// G ≤ 0, a negative mass, or a value that is not finite.
PointMass body_from_elements(double g, const PointMass& primary, double mass, double a, double e,
                             double inc, double Omega, double omega, double f);

// The body from the elements a user gave, at time `time` (for T), checked as REBOUND checks
// them: ParameterError for neither or both of a and P, both ω and ϖ, more than one of f, M, E,
// l, θ, T, P ≤ 0, and everything body_from_elements() refuses.
PointMass body_from_orbit(double g, const PointMass& primary, double mass, const OrbitGiven& given,
                          double time = 0.0);

// The elements of `body` about `primary` at time `time` (for T). ParameterError for a primary
// without mass, G ≤ 0, or a body at the position of its primary.
Orbit orbit_about(double g, const PointMass& body, const PointMass& primary, double time = 0.0);

}  // namespace orrery
