// SPDX-License-Identifier: MIT
// Local essential trees (J. K. Salmon, PhD thesis, Caltech 1991; M. S. Warren & J. K. Salmon,
// Supercomputing '93): what of a rank's octree another rank's walk would use. A cell that the
// Barnes–Hut test takes whole from the box of every body of the receiver (s < θ d, d measured to
// the receiver's box, so at least as far as to any of its groups: nbody/tree/cell_opening.hpp)
// is sent as a cell, its moments alone; a leaf that is not is sent with its bodies; any other
// cell is opened and sent with what its children give. The receiver walks the result as a tree
// (cpu::Octree::assign, cpu::walk_sources) beside its own, with the same test per group.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "nbody/tree/cpu/octree.hpp"

namespace orrery::dist {

// The local essential tree of `tree` for a receiver whose bodies lie in [lo, hi], as bytes
// appended to `out` (the node count, the body count, the nodes with their skip links, their
// quadrupoles, the bodies).
template <class Real>
void append_essential_tree(const cpu::Octree<Real>& tree, const Real (&lo)[3],
                           const Real (&hi)[3], Real theta, std::vector<std::byte>& out);

// The tree those bytes hold.
template <class Real>
cpu::Octree<Real> read_essential_tree(std::span<const std::byte> bytes);

}  // namespace orrery::dist
