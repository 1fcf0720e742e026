// SPDX-License-Identifier: MIT
// The monopole of a tree cell from its parts — bodies for a leaf, child cells for any other —
// written once for the CPU build (cpu/octree.cpp) and the GPU build (cuda/cuda_octree.cu), so
// the two trees carry the same moments: M = Σ m_k, R = Σ m_k x_k / M, and the mass-weighted mean
// of ε²/2, accumulated in the wide type W (double, or float128 for float128 trees) and rounded
// once by the caller. A massless cell sits at its first part. Its quadrupole about R follows from
// physics/multipole.hpp.
#pragma once

#include "orrery/core/hd.hpp"

namespace orrery {

template <class W>
struct MonopoleSum {
  W m = 0, mx = 0, my = 0, mz = 0, mh = 0;

  ORRERY_HD void add(W mass, W x, W y, W z, W half_eps2) {
    m += mass;
    mx += mass * x;
    my += mass * y;
    mz += mass * z;
    mh += mass * half_eps2;
  }
  // The centre of mass, or (fx, fy, fz) — the first part's — for a massless cell.
  ORRERY_HD W cx(W fx) const { return m > 0 ? mx / m : fx; }
  ORRERY_HD W cy(W fy) const { return m > 0 ? my / m : fy; }
  ORRERY_HD W cz(W fz) const { return m > 0 ? mz / m : fz; }
  ORRERY_HD W half_eps2(W first) const { return m > 0 ? mh / m : first; }
};

}  // namespace orrery
