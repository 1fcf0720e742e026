// SPDX-License-Identifier: MIT
// The Barnes–Hut octree of the CPU tree engine. Bodies are sorted by their 63-bit Morton key
// (core/morton.hpp) in the system's bounding cube, so every cell holds a contiguous range of
// the sorted bodies; cells are split top-down until they hold at most `leaf_size` bodies. Nodes
// are stored in depth-first order with a skip link (`next`: the node after the whole subtree),
// so a walk needs no stack: open a cell by going to the node after it, take it whole (or finish
// a leaf) by jumping to `next` (M. S. Warren & J. K. Salmon, Supercomputing '93; the
// "threaded" tree of V. Springel, MNRAS 364, 1105, 2005). Each node carries its monopole and
// quadrupole (physics/multipole.hpp) and the side of the tight bounding box of its bodies, which
// the opening test compares with the distance to a group of targets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "orrery/physics/multipole.hpp"

namespace orrery::cpu {

template <class Real>
struct OctreeNode {
  Real cx, cy, cz;   // centre of mass
  Real mass;
  Real size;         // the longest side of the bounding box of the node's bodies
  Real half_eps2;    // mass-weighted mean of the bodies' ε²/2
  std::uint32_t begin, count;  // the node's bodies in sorted order
  std::uint32_t next;          // the node after this one's subtree
  bool leaf;
};

// The system in sorted (tree) order, structure of arrays.
template <class Real>
struct SortedBodies {
  std::vector<Real> x, y, z, mass, half_eps2;
  std::vector<std::uint32_t> original;  // sorted position -> index in the caller's arrays
};

template <class Real>
class Octree {
 public:
  // Builds the tree of n bodies (positions, masses, ε²/2 in the caller's order), reusing this
  // object's memory. leaf_size ≥ 1; cells of identical keys (coinciding bodies) stop splitting
  // at the finest level whatever their count.
  void build(const Real* x, const Real* y, const Real* z, const Real* mass,
             const Real* half_eps2, std::size_t n, int leaf_size);

  // A tree of nodes another process built and sent (dist/tree_over_ranks: a local essential
  // tree): the nodes in depth-first order with their skip links, their quadrupoles, and the
  // bodies the nodes' ranges index. A leaf with no bodies stands for a cell the sender found far
  // enough from every target of this process: it is always taken whole.
  void assign(std::vector<OctreeNode<Real>> nodes, std::vector<Quadrupole<Real>> quadrupoles,
              SortedBodies<Real> bodies) {
    nodes_ = std::move(nodes), quadrupoles_ = std::move(quadrupoles), bodies_ = std::move(bodies);
  }

  const std::vector<OctreeNode<Real>>& nodes() const { return nodes_; }
  const std::vector<Quadrupole<Real>>& quadrupoles() const { return quadrupoles_; }
  const SortedBodies<Real>& bodies() const { return bodies_; }
  // Groups of nearby targets that walk the tree together: the nodes of at most `group_size`
  // bodies whose parent holds more (or leaves), in depth-first order; together they cover every
  // body once.
  std::vector<std::uint32_t> groups(int group_size) const;

 private:
  std::uint32_t build_node(std::size_t begin, std::size_t end, int level);
  void leaf_moments(OctreeNode<Real>& node, Quadrupole<Real>& q, Real* box) const;

  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> order_;
  std::vector<OctreeNode<Real>> nodes_;
  std::vector<Quadrupole<Real>> quadrupoles_;
  std::vector<Real> boxes_;  // per node: min x, y, z, max x, y, z (during the build)
  SortedBodies<Real> bodies_;
  int leaf_size_ = 1;
};

}  // namespace orrery::cpu
