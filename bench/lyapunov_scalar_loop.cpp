// SPDX-License-Identifier: MIT
// The baseline of the Lyapunov map on the CPU: a plain scalar loop, one Hénon–Heiles start after
// another, as a user writes it without orrery (and as ChaosTools' `lyapunov` computes it, less
// its generality): yoshida4 (Yoshida, Phys. Lett. A 150, 262 (1990)) written out as
// kick–drift–kick–drift–kick–drift–kick, the deviation vector advanced by the variational
// equations of each substep (the tangent map method of Skokos & Gerlach, Phys. Rev. E 82,
// 036704 (2010)):
//
//   drift c·h:  q += c·h·p,  dq += c·h·dp        kick d·h:  p += d·h·a(q),  dp += d·h·J(q)·dq,
//   a = (−x − 2xy, −y − x² + y²),   J = ∂a/∂q = [[−1 − 2y, −2x], [−2x, −1 + 2y]],
//
// renormalised every `every` steps, λ = Σ ln|w| / t (Benettin et al., Meccanica 15, 9 (1980)).
// The same algorithm as orrery's lanes, and as fast as plain scalar code makes it: the state and
// the vector in local variables, the substeps unrolled, the force and its Jacobian evaluated three
// times a step, and the last kick of a step merged with the first of the next within an interval
// (orrery's split_run does the same). Compiled -O3 -march=native -ffp-contract=fast
// (bench/CMakeLists.txt: a user's compiler defaults, not orrery's -ffp-contract=off, so that
// every a·b + c may be one fused multiply-add).
#include <cmath>
#include <cstdint>
#include <vector>

#include "orrery/integrate/splitting/splitting_tables.hpp"

namespace orrery::bench {

namespace {

struct HenonHeilesTangent {
  double x, y, px, py;      // the state
  double wx, wy, wpx, wpy;  // the deviation vector
  double ax, ay;            // a(q)
  double jxx, jxy, jyy;     // J(q)

  void force() {
    ax = -x - 2 * x * y, ay = -y - x * x + y * y;
    jxx = -1 - 2 * y, jxy = -2 * x, jyy = -1 + 2 * y;
  }
  void kick(double c) {
    px += c * ax, py += c * ay;
    wpx += c * (jxx * wx + jxy * wy), wpy += c * (jxy * wx + jyy * wy);
  }
  void drift(double c) {
    x += c * px, y += c * py;
    wx += c * wpx, wy += c * wpy;
    force();
  }
};

}  // namespace

std::vector<double> scalar_henon_heiles_lyapunov(const std::vector<double>& rows, std::int64_t n,
                                                 std::int64_t steps, double dt,
                                                 std::int64_t every) {
  const double half = yoshida::w1 / 2 * dt, inner = (1 - yoshida::w1) / 2 * dt,
               outer = yoshida::w1 * dt, middle = yoshida::w0 * dt;
  std::vector<double> lambda(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    HenonHeilesTangent s{};
    s.x = rows[i * 4], s.y = rows[i * 4 + 1], s.px = rows[i * 4 + 2], s.py = rows[i * 4 + 3];
    // orrery's first deviation vector (ensemble/chaos/deviation_vectors.hpp), normalised.
    s.wx = 2.0, s.wy = 1.0 / 2, s.wpx = 1.0 / 3, s.wpy = 1.0 / 4;
    const double w0 = std::sqrt(s.wx * s.wx + s.wy * s.wy + s.wpx * s.wpx + s.wpy * s.wpy);
    s.wx /= w0, s.wy /= w0, s.wpx /= w0, s.wpy /= w0;
    s.force();
    double growth = 0;
    for (std::int64_t k = 0; k < steps / every; ++k) {
      s.kick(half);
      for (std::int64_t j = 0; j < every; ++j) {
        s.drift(outer);
        s.kick(inner);
        s.drift(middle);
        s.kick(inner);
        s.drift(outer);
        s.kick(j + 1 < every ? outer : half);
      }
      const double norm = std::sqrt(s.wx * s.wx + s.wy * s.wy + s.wpx * s.wpx + s.wpy * s.wpy);
      growth += std::log(norm);
      s.wx /= norm, s.wy /= norm, s.wpx /= norm, s.wpy /= norm;
    }
    lambda[static_cast<std::size_t>(i)] = growth / (static_cast<double>(steps) * dt);
  }
  return lambda;
}

}  // namespace orrery::bench
