// SPDX-License-Identifier: MIT
// The Kepler drifts of many bodies at once (whfast's planets and test particles), compiled once
// per instruction set (kepler_lanes.cpp) and chosen at run time (kepler_lanes_kernels.cpp), in
// the spirit of WHFast512 (Javaheri, Rein & Tamayo, OJAp 6, 29, 2023): the bodies' drifts side by
// side in SIMD lanes, one fixed sequence of operations for all. That sequence is the drift's
// close-guess path (physics/kepler_drift.hpp: the G's by their series at the guess, Halley's
// step, Newton's step); a body for which it does not hold (a step of more than about 5 % of its
// orbit, where the series needs its argument reduced, or a guess that is not close) is left as
// it was and marked, for kepler_drift to move alone. Only correctly rounded IEEE operations, so
// a body gets the bits kepler_drift gives it on every instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace orrery::cpu {

// Positions and velocities of bodies (SoA), each about its own μ = G M; far[k] = 1 where body k
// was left to the scalar drift, 0 where it moved.
struct KeplerBodies {
  double* x;
  double* y;
  double* z;
  double* vx;
  double* vy;
  double* vz;
  const double* mu;
  std::uint64_t* far;
};

// Moves bodies [begin, end) by h (≠ 0) where the close-guess path holds; marks the others.
using KeplerDriftsFn = void (*)(const KeplerBodies& bodies, std::size_t begin, std::size_t end,
                                double h);

struct KeplerLanesKernel {
  const char* name;  // "avx512", "avx2", "generic"
  KeplerDriftsFn drifts_f64;
};

// The widest variant this CPU runs (they give the same bits; only their speed differs).
const KeplerLanesKernel& widest_kepler_lanes();

}  // namespace orrery::cpu
