// SPDX-License-Identifier: MIT
// The user's Hénon–Heiles (`--potential` text, parsed and packed as the ensemble will) against
// the built-in gradient in the same leapfrog kernel, one JSON line per kernel. Usage:
//   orrery_polynomial_leapfrog [trajectories (2^20)] [steps (10^5)]
// Count the fp64 instructions per step with bench/sass_fp64_count.py's method on
// `cuobjdump -sass` of this executable.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "orrery/core/version.hpp"
#include "orrery/physics/polynomial_text.hpp"
#include "polynomial_leapfrog.hpp"

int main(int argc, char** argv) {
  using namespace orrery;
  using namespace orrery::bench;
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100000;
  const double dt = 0.01;
  const PolynomialTerms v = parse_potential("0.5*(x^2+y^2) + x^2*y - y^3/3", 2);
  std::vector<double> reference(n, NAN);
  const auto report = [&](const char* kernel, const LeapfrogRun& r, double builtin_seconds) {
    std::printf("{\"git\": \"%s\", \"kernel\": \"%s\", \"trajectories\": %d, \"steps\": %d, "
                "\"seconds\": %.6f, \"trajectory_steps_per_s\": %.4g, \"time_over_builtin\": "
                "%.3f, \"largest_final_y_gap\": %.3g}\n",
                git_hash().c_str(), kernel, n, steps, r.seconds, double(n) * steps / r.seconds,
                builtin_seconds > 0 ? r.seconds / builtin_seconds : 1.0, r.largest_y_gap);
  };
  const LeapfrogRun builtin = leapfrog_builtin(n, steps, dt, reference.data());
  report("builtin", builtin, builtin.seconds);
  report("polynomial_dense",
         leapfrog_polynomial(pack_potential<double, 2, 3, 0>(v), n, steps, dt, reference.data()),
         builtin.seconds);
  report("polynomial_even_x",
         leapfrog_polynomial(pack_potential<double, 2, 3, kEvenInX>(v), n, steps, dt,
                             reference.data()),
         builtin.seconds);
  report("builtin_again", leapfrog_builtin(n, steps, dt, reference.data()), builtin.seconds);
}
