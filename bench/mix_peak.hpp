// SPDX-License-Identifier: MIT
// An inner loop's instructions per interaction vector, by kind (mix_peak.cpp runs them).
#pragma once

namespace orrery::bench {

struct MixRecipe {
  int fmas = 0;       // fused multiply-adds and multiplies
  int adds = 0;       // additions and subtractions
  int estimates = 0;  // reciprocal-square-root estimates (AVX2 fp64: narrow, estimate, widen)
  int logic = 0;      // and/andnot (fp64 only)
  int compares = 0;   // compare + move mask to a general register (fp64 only)
};

}  // namespace orrery::bench
