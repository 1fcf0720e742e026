// SPDX-License-Identifier: MIT
// The baseline of the CPU ensemble lanes: Hénon–Heiles leapfrog (half kicks merged, the lanes'
// arithmetic) as a plain scalar loop, one trajectory after another. Compiled with FMA
// (-march=x86-64-v3, bench/CMakeLists.txt), so that fma is one instruction, not a call.
#include <cstdint>
#include <vector>

#include "orrery/physics/henon_heiles.hpp"

namespace orrery::bench {

double scalar_henon_heiles_leapfrog(const std::vector<double>& rows, std::int64_t n,
                                    std::int64_t steps, double dt) {
  double checksum = 0;
  const double half = 0.5 * dt;
  for (std::int64_t i = 0; i < n; ++i) {
    double q[2] = {rows[i * 4], rows[i * 4 + 1]}, p[2] = {rows[i * 4 + 2], rows[i * 4 + 3]};
    double a[2];
    henon_heiles_acceleration(q, a);
    p[0] = mul_add(half, a[0], p[0]), p[1] = mul_add(half, a[1], p[1]);
    for (std::int64_t k = 0; k < steps; ++k) {
      q[0] = mul_add(dt, p[0], q[0]), q[1] = mul_add(dt, p[1], q[1]);
      henon_heiles_acceleration(q, a);
      const double kick = k + 1 < steps ? dt : half;
      p[0] = mul_add(kick, a[0], p[0]), p[1] = mul_add(kick, a[1], p[1]);
    }
    checksum += q[0] + q[1] + p[0] + p[1];
  }
  return checksum;
}

}  // namespace orrery::bench
