// SPDX-License-Identifier: MIT
// Random numbers that are the same on every platform for a seed. std::mt19937_64 is fully
// specified by the standard (its 10 000th output is fixed there); the distributions of <random>
// are not (each library picks its own algorithm). So the conversions here are our own and use
// only exact operations (shifts, scaling by powers of two) and correctly rounded + − × ÷ and √.
//
// Directions without trigonometry: a point uniform in the unit disk (rejection from the square)
// gives a uniform angle through its doubled angle (J. von Neumann, NBS Appl. Math. Ser. 12, 36,
// 1951) and a uniform direction in space (G. Marsaglia, Ann. Math. Stat. 43, 645, 1972).
#pragma once

#include <array>
#include <cstdint>
#include <random>

#include "orrery/core/vec3.hpp"

namespace orrery {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}

  // Uniform on [0, 1): the top 53 bits of one draw, scaled exactly.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): the midpoints of the same grid, never 0 or 1.
  double uniform_open() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  // Uniform on [a, b).
  double uniform(double a, double b) { return a + (b - a) * uniform(); }

  // (cos φ, sin φ) with φ uniform on [0, 2π).
  std::array<double, 2> unit_circle() {
    while (true) {
      const double u = uniform(-1.0, 1.0), v = uniform(-1.0, 1.0);
      const double s = u * u + v * v;
      // s = 0 has no direction; s tiny loses the angle's low bits to rounding.
      if (s >= 1.0 || s < 0x1.0p-40) continue;
      return {(u * u - v * v) / s, 2.0 * u * v / s};
    }
  }

  // A direction uniform on the unit sphere.
  Vec3d unit_vector() {
    while (true) {
      const double u = uniform(-1.0, 1.0), v = uniform(-1.0, 1.0);
      const double s = u * u + v * v;
      if (s >= 1.0) continue;
      const double root = 2.0 * std::sqrt(1.0 - s);
      return {u * root, v * root, 1.0 - 2.0 * s};
    }
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace orrery
