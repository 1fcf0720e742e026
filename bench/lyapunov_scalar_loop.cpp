// SPDX-License-Identifier: MIT
// The baseline of the Lyapunov map on the CPU: a plain scalar loop, one Hénon–Heiles start after
// another, as a user writes it without orrery (and as ChaosTools' `lyapunov` computes it, less
// its generality): yoshida4 (Yoshida, Phys. Lett. A 150, 262 (1990)) as kick–drift–kick–drift–
// kick–drift–kick, the deviation vector advanced by the variational equations of each substep
// (the tangent map method of Skokos & Gerlach, Phys. Rev. E 82, 036704 (2010)):
//
//   drift c·h:  dq += c·h·dp              kick d·h:  dp += d·h·J(q)·dq,
//   J = ∂a/∂q = [[−1 − 2y, −2x], [−2x, −1 + 2y]]   for a = (−x − 2xy, −y − x² + y²),
//
// renormalised every `every` steps, λ = Σ ln|w| / t (Benettin et al., Meccanica 15, 9 (1980)).
// Compiled with FMA (-march=x86-64-v3, bench/CMakeLists.txt), so that fma is one instruction.
#include <cmath>
#include <cstdint>
#include <vector>

#include "orrery/integrate/splitting/splitting_tables.hpp"
#include "orrery/physics/henon_heiles.hpp"

namespace orrery::bench {

std::vector<double> scalar_henon_heiles_lyapunov(const std::vector<double>& rows, std::int64_t n,
                                                 std::int64_t steps, double dt,
                                                 std::int64_t every) {
  std::vector<double> lambda(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    double q[2] = {rows[i * 4], rows[i * 4 + 1]}, p[2] = {rows[i * 4 + 2], rows[i * 4 + 3]};
    // orrery's first deviation vector (ensemble/chaos/deviation_vectors.hpp), normalised.
    double w[4] = {2.0, 1.0 / 2, 1.0 / 3, 1.0 / 4};
    const double w0 = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
    for (double& c : w) c /= w0;
    double growth = 0;
    // The force and its Jacobian at the current q: the last kick of a step and the first of the
    // next share them (three evaluations a step, as orrery's split_step keeps them).
    double a[2], jxx = 0, jxy = 0, jyy = 0;
    bool current = false;
    for (std::int64_t k = 1; k <= steps; ++k) {
      for (const SplitOp& op : Yoshida4::ops) {
        const double c = op.coefficient * dt;
        if (op.kind == SplitKind::drift) {
          q[0] = std::fma(c, p[0], q[0]), q[1] = std::fma(c, p[1], q[1]);
          w[0] = std::fma(c, w[2], w[0]), w[1] = std::fma(c, w[3], w[1]);
          current = false;
        } else {
          if (!current) {
            henon_heiles_acceleration(q, a);
            jxx = -1 - 2 * q[1], jxy = -2 * q[0], jyy = -1 + 2 * q[1];
            current = true;
          }
          const double dax = jxx * w[0] + jxy * w[1], day = jxy * w[0] + jyy * w[1];
          p[0] = std::fma(c, a[0], p[0]), p[1] = std::fma(c, a[1], p[1]);
          w[2] = std::fma(c, dax, w[2]), w[3] = std::fma(c, day, w[3]);
        }
      }
      if (k % every == 0) {
        const double norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
        growth += std::log(norm);
        for (double& c : w) c /= norm;
      }
    }
    lambda[static_cast<std::size_t>(i)] = growth / (static_cast<double>(steps) * dt);
  }
  return lambda;
}

}  // namespace orrery::bench
