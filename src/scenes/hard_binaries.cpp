// SPDX-License-Identifier: MIT
#include "orrery/scenes/hard_binaries.hpp"

#include <cmath>
#include <string>

#include "orrery/core/error.hpp"
#include "orrery/scenes/random_stream.hpp"

namespace orrery {

Particles<double> with_hard_binaries(Particles<double> p, int count, double separation,
                                     double softening, double g, std::uint64_t seed) {
  if (!p.softening.empty())
    throw InputError("hard binaries: the particles carry their own softening");
  const std::size_t n = p.size();
  if (count < 0 || static_cast<std::size_t>(count) > n)
    throw ParameterError("binaries", std::to_string(count),
                         "an integer in [0, " + std::to_string(n) + "]");
  RandomStream rng(seed);
  for (int b = 0; b < count; ++b) {
    const std::size_t i = n / count * b;
    const double m = p.mass[i];
    const Vec3d axis = rng.unit_vector(), w = rng.unit_vector();
    // Perpendicular to the axis: axis × w, normalised.
    Vec3d across{axis.y * w.z - axis.z * w.y, axis.z * w.x - axis.x * w.z,
                 axis.x * w.y - axis.y * w.x};
    across = (1 / std::sqrt(norm2(across))) * across;
    const double r2 = separation * separation + softening * softening;
    const double v_rel = separation * std::sqrt(g * 2 * m / (r2 * std::sqrt(r2)));
    const Vec3d offset = (separation / 2) * axis, kick = (v_rel / 2) * across;
    const Vec3d x{p.x[i], p.y[i], p.z[i]}, v{p.vx[i], p.vy[i], p.vz[i]};
    const std::size_t j = p.size();
    p.resize(j + 1);
    p.id[j] = j;
    p.mass[j] = m;
    for (auto [k, sign] : {std::pair{i, -1.0}, std::pair{j, 1.0}}) {
      const Vec3d xk = x + sign * offset, vk = v + sign * kick;
      p.x[k] = xk.x, p.y[k] = xk.y, p.z[k] = xk.z;
      p.vx[k] = vk.x, p.vy[k] = vk.y, p.vz[k] = vk.z;
    }
  }
  return p;
}

}  // namespace orrery
