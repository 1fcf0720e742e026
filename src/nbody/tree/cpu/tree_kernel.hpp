// SPDX-License-Identifier: MIT
// The tree engine's inner loops, compiled once per instruction set (tree_lists.cpp) and chosen
// at run time (tree_kernels.cpp), as the direct engine's are. A group of targets walks the tree
// once (tree_walk.hpp) and collects what acts on all of them: bodies of opened leaves and cells
// taken whole. A kernel sums those lists for every target of the group: no tree, no threads,
// nothing outside its arguments.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace orrery::cpu {

// Sources in structure of arrays; `size` entries, the arrays padded to a multiple of the widest
// vector with massless entries.
template <class Real>
struct SourceList {
  std::vector<Real> x, y, z, mass, half_eps2;
  std::vector<Real> qxx, qxy, qxz, qyy, qyz, qzz;  // cells only
  std::size_t size = 0;
};

// The targets of a group, in sorted order (pointers into the tree's sorted bodies).
template <class Real>
struct GroupTargets {
  const Real *x, *y, *z, *half_eps2;
  std::size_t count;
};

// a_i += Σ m (x_s − x_i)/r³ and φ_i −= Σ m/r over the body list, plus the cells' monopole (and
// quadrupole when `quadrupole`) terms; unscaled by G. A source at r = 0 adds nothing (the
// target itself when ε = 0); with ε > 0 the target's own term is in the sum, and the caller
// removes it from φ.
template <class Real>
using TreeListsFn = void (*)(const GroupTargets<Real>& t, const SourceList<Real>& bodies,
                             const SourceList<Real>& cells, bool quadrupole, Real* ax, Real* ay,
                             Real* az, Real* phi);

struct TreeKernelOps {
  std::size_t pad;  // list lengths are padded to a multiple of this
  TreeListsFn<double> lists_f64;
  TreeListsFn<float> lists_f32;
};

struct TreeKernel {
  const char* name;
  const TreeKernelOps* ops;
};

// The named variant ("" the widest this CPU runs), as choose_direct_kernel.
const TreeKernel& choose_tree_kernel(const std::string& name);

}  // namespace orrery::cpu
