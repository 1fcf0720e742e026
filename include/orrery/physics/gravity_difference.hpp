// SPDX-License-Identifier: MIT
// The change of a gravitational pair factor when the pair's separation d (a reference
// trajectory's) becomes d + e (a nearby trajectory's, e its difference from the reference),
// formed without subtracting nearly equal numbers, so that it keeps fp64's relative precision
// for every size of e, however small:
//
//   (d + e)/|d + e|³ − d/|d|³ = e/q³ + d·(1/q³ − 1/r³),   r = |d|,  q = |d + e|,
//   1/q³ − 1/r³ = −(q² − r²)(q² + q·r + r²) / ((q + r)·q³·r³),
//   q² − r² = t = e·(2d + e)
//
// (q² − r² from its factored form: the two squares themselves are never subtracted). This is
// the perturbation form of Newton's pair force as used for deep zooms of the Mandelbrot set
// (K. I. Martin, "Superfractalthing maths", 2013; perturbation theory of nearby orbits in any
// text on celestial mechanics, e.g. Murray & Dermott, "Solar System Dynamics" (1999), §6.2):
// each pixel is integrated as its difference from one accurately computed trajectory.
//
// A pair's reference part (d, r², r, 1/r³) is read from a record formed once per step and
// stage on the host (ensemble/problems/divergence3/reference_orbit.hpp), rounded to fp64:
// rounding d changes the result by a relative 2⁻⁵³, as any fp64 operation does.
#pragma once

#include "orrery/core/hd_math.hpp"
#include "orrery/core/vec3.hpp"

namespace orrery {

// The words of one pair's reference part in a record: d (three words), r², r, 1/r³.
inline constexpr int kPairReferenceWords = 6;

// (d + e)/|d + e|³ − d/|d|³ from the reference pair (d, r2 = |d|², r = |d|, inv_r3 = 1/r³) and
// the difference e: one square root and one division, as the plain pair factor takes.
template <class T>
ORRERY_HD Vec3<T> pair_factor_difference(const Vec3<T>& d, const T& r2, const T& r,
                                         const T& inv_r3, const Vec3<T>& e) {
  const T q2 = norm2(d + e);
  const Vec3<T> s = mul_add(T(2.0), d, e);
  const T t = mul_add(e.z, s.z, mul_add(e.y, s.y, e.x * s.x));
  const T q = sqrt(q2);
  const T q_plus_r = q + r;
  const T w = T(1.0) / (q_plus_r * q2 * q);  // 1/((q + r) q³)
  const T inv_q3 = q_plus_r * w;
  const T change = -(t * (q2 + mul_add(q, r, r2)) * inv_r3 * w);  // 1/q³ − 1/r³
  return mul_add(change, d, inv_q3 * e);
}

}  // namespace orrery
