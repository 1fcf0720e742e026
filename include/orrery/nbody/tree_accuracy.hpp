// SPDX-License-Identifier: MIT
// The tree's settings chosen by the error they give: for a target median relative error of |a|,
// the opening angle θ and multipole order that reach it on this system with the least work.
//
// The error of a Barnes–Hut walk depends on the system (a clumpy collision is not a Plummer
// sphere), on N and on the precision, so no fixed table of θ keeps a promise of accuracy. Here it
// is measured: on a fixed sample of bodies (evenly spaced in the input order) the tree's
// accelerations are compared with a direct sum in double, and for each multipole order the
// largest θ of the ladder 0.20, 0.25, … 1.20 whose sample median is within 0.9 of the target and
// whose 99th percentile is within ten times it is found by bisection (the error grows with θ).
// Of the two, the one with less work is taken: a walk's work grows as θ⁻³ (the cells within
// reach of a group), a quadrupole cell costs quadrupole_cell_cost() monopole ones on the backend
// (the work–precision diagrams, docs/internals/gravity-tree.md), so work ∝ cost/θ³ — a model, not a
// timing, so that the same command chooses the same settings on every run.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "orrery/nbody/engine_options.hpp"

namespace orrery {

// The accepted targets: a tree in fp32 cannot do better than ~10⁻⁶, none is worth using above
// 10⁻¹.
inline constexpr double kTreeAccuracyLowest = 1e-6;
inline constexpr double kTreeAccuracyHighest = 1e-1;
// The 99th percentile allowed, in units of the target median (the promise of issue 29: median ≤
// 3·10⁻⁴ with p99 ≤ 3·10⁻³).
inline constexpr double kTreeAccuracyTail = 10.0;
// A quadrupole cell's cost in monopole cells: the force pass at equal θ, quadrupole over
// monopole, at N = 10⁶ in fp32 — on one H100 1.73 at θ = 0.5 and 1.65 at 0.7, on its host's 16
// cores 1.38 and 1.30 (bench/results/tree-theta-H100-2026-11-27.json).
inline double quadrupole_cell_cost(Backend backend) {
  return backend == Backend::cuda ? 1.7 : 1.35;
}

struct TreeSetting {
  double theta = 0;
  Multipole multipole = Multipole::quadrupole;
  double error_median = 0, error_p99 = 0;  // on the sample
  bool meets = false;                       // within the target
};

struct TreeAccuracyChoice {
  TreeSetting chosen;
  std::vector<TreeSetting> tried;  // in the order evaluated
  std::size_t sample = 0;          // bodies compared
  double seconds = 0;              // the whole search, reference included
};

// Throws ParameterError("--accuracy", …) unless kTreeAccuracyLowest ≤ target ≤
// kTreeAccuracyHighest: the check a job makes before any work.
void check_tree_accuracy(double target);

// Throws ParameterError("--accuracy", …) for a target outside [kTreeAccuracyLowest,
// kTreeAccuracyHighest] or one that even θ = 0.2 with quadrupoles misses on this system (naming
// what it reached). `base` gives everything but θ and the multipole (backend, G, softening, …);
// x holds 3N positions [x…, y…, z…], softening the bodies' own ε (empty: base's global one).
template <class Real>
TreeAccuracyChoice choose_tree_setting(double target, const EngineOptions& base,
                                       std::span<const Real> x, std::span<const Real> mass,
                                       std::span<const Real> softening);

// "theta 0.5, monopole (median 2.6e-04, p99 1.6e-03 on 512 bodies)".
std::string describe(const TreeAccuracyChoice& c);

}  // namespace orrery
