// SPDX-License-Identifier: MIT
// Small ensembles for the tests: a run of a problem and integrator from given start rows.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "orrery/ensemble/ensemble.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/ensemble/problems/polynomial/polynomial_choice.hpp"

namespace orrery::test {

struct SmallEnsemble {
  std::string problem = "henon-heiles";
  std::string potential;  // V(q) of `polynomial` (then `problem` is not read)
  std::string integrator = "leapfrog";
  Precision precision = Precision::fp64;
  double dt = 0.01;
  std::int64_t steps = 1000;
  int samples = 1;
  std::vector<double> rows;  // state (and parameter) words of each trajectory
  EnsembleStarts sweep;      // used when rows is empty
  std::int64_t trajectories = 0;
  double tolerance = 0;  // > 0: each trajectory controls its step, to steps·dt
  EnsembleSection section;  // word >= 0: crossings recorded (ensemble/ensemble_section.hpp)
  mutable std::shared_ptr<const void> data;  // the potential packed by setup()

  EnsembleSetup setup() const {
    EnsembleSetup s;
    if (potential.empty()) {
      s.problem = ensemble_problem_index(problem);
    } else {
      const PolynomialProblemChoice c =
          choose_polynomial_problem(parse_ensemble_potential(potential, "potential"));
      s.problem = c.problem;
      data = c.data;
      s.data = data.get();
    }
    s.integrator = ensemble_integrator_index(integrator);
    s.precision = precision;
    s.dt = dt;
    s.steps = steps;
    s.samples = samples;
    s.tolerance = tolerance;
    s.section = section;
    const auto& info = ensemble_problems()[static_cast<std::size_t>(s.problem)];
    s.starts = sweep;
    if (!rows.empty()) {
      s.starts.rows = rows.data();
      s.trajectories = static_cast<std::int64_t>(rows.size()) / (info.state_words + info.parameters);
    } else {
      s.trajectories = trajectories;
    }
    return s;
  }
  EnsembleOutcome run(Backend backend = Backend::cpu, const std::string& cpu_kernel = "",
                      int threads = 0) const {
    EnsembleRunOptions o;
    o.backend = backend;
    o.cpu_kernel = cpu_kernel;
    o.threads = threads;
    return run_ensemble(setup(), o);
  }
};

// The GPU ensemble solvers' Lorenz benchmark: u0 = (1, 0, 0), σ = 10, β = 8/3, ρ = linspace(0,
// 21, n), t ∈ [0, 1] in steps of 10⁻³.
inline SmallEnsemble lorenz_benchmark(std::int64_t n) {
  SmallEnsemble e;
  e.problem = "lorenz";
  e.integrator = "rk4";
  e.dt = 1e-3;
  e.steps = 1000;
  e.trajectories = n;
  e.sweep.base[0] = 1.0;
  e.sweep.base[3] = 10.0;
  e.sweep.base[5] = 8.0 / 3.0;
  e.sweep.swept = 4;
  e.sweep.from = 0.0;
  e.sweep.to = 21.0;
  return e;
}

inline constexpr const char* kHenonHeilesPotential = "0.5*(x^2+y^2) + x^2*y - y^3/3";

// Hénon–Heiles starts on the section x = 0 at energy e: (0, y, px, py) with px from e.
// The largest |ΔE/E| of a run's drift samples, over every trajectory.
inline double largest_drift(const SmallEnsemble& e) {
  const EnsembleOutcome out = e.run();
  double largest = 0;
  for (float d : out.drift) largest = std::max(largest, std::abs(static_cast<double>(d)));
  return largest;
}

inline std::vector<double> henon_heiles_rows(double e, int count) {
  std::vector<double> rows;
  for (int i = 0; i < count; ++i) {
    const double y = -0.2 + 0.4 * i / count, py = 0.1 * (i % 3 - 1);
    const double v = y * y / 2 - y * y * y / 3;
    rows.insert(rows.end(), {0.0, y, std::sqrt(2 * (e - v) - py * py), py});
  }
  return rows;
}

// The figure-eight choreography of three equal masses (G = m = 1): A. Chenciner and
// R. Montgomery, "A remarkable periodic solution of the three-body problem in the case of equal
// masses", Ann. of Math. 152, 881 (2000), with C. Simó's initial conditions as they quote them
// (to 8 digits): x1 = −x2 = (0.97000436, −0.24308753), x3 = 0, v3 = −2 v1 = −2 v2 =
// (−0.93240737, −0.86473146), period T = 6.32591398.
struct FigureEight {
  static constexpr double x1 = 0.97000436, y1 = -0.24308753;
  static constexpr double vx3 = -0.93240737, vy3 = -0.86473146;
  static constexpr double period = 6.32591398;
};

// The figure eight's row of `three-body` (x1 … z3, vx1 … vz3, gm1, gm2, gm3), its velocities
// scaled by `speed` (1: the choreography).
inline std::vector<double> figure_eight_row(double speed = 1.0) {
  using F = FigureEight;
  const double vx = -0.5 * F::vx3 * speed, vy = -0.5 * F::vy3 * speed;
  return {F::x1, F::y1, 0, -F::x1, -F::y1, 0, 0, 0, 0,
          vx,    vy,    0, vx,     vy,     0, F::vx3 * speed, F::vy3 * speed, 0,
          1,     1,     1};
}

// `count` rows near the figure eight (which stays near it for many periods): each its speeds
// scaled by 1 ± 0.2 %, and body 3 lifted out of the plane a little (all three coordinates move).
inline std::vector<double> three_body_rows(int count) {
  std::vector<double> rows;
  for (int i = 0; i < count; ++i) {
    std::vector<double> r = figure_eight_row(0.998 + 0.004 * i / count);
    r[8] = 0.001 * (i % 5);
    rows.insert(rows.end(), r.begin(), r.end());
  }
  return rows;
}

}  // namespace orrery::test
