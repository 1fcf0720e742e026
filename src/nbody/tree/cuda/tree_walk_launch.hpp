// SPDX-License-Identifier: MIT
// The CUDA tree engine's force pass as the engine calls it (tree_walk.cu). No fmt here: the
// .cu file includes it.
#pragma once

#include <cuda_runtime.h>

#include "nbody/tree/cuda/cuda_octree.hpp"

namespace orrery::cuda {

// Targets per walking group: a warp of 32 lanes, one or two targets each.
inline constexpr int kWarpGroupSmall = 32;
inline constexpr int kWarpGroupLarge = 64;
// Entries of a warp's stack of nodes to test (tree_walk.cu), and the room it keeps free: a round
// of 32 tests pushes at most 64, and within the last 64 the walk goes depth-first, which needs
// one entry per level (an octree of 21-bit Morton keys has at most 22).
inline constexpr int kWalkStack = 512;
inline constexpr int kWalkStackRoom = 64;

template <class Real>
struct TreePass {
  OctreeView<Real> tree;
  Real theta2;            // θ²: a cell of size s at distance d from the group is taken when s² < θ² d²
  Real global_half_eps2;  // ε²/2 of every body when tree.body_h is nullptr
  bool quadrupole;
  int group;              // kWarpGroupSmall or kWarpGroupLarge
  Real g;
  // The groups walked: first_group, first_group + group_stride, ... (`groups` of them) of
  // tree.group_count — device k of D walks k, k + D, ...: groups are in space-filling order, so
  // every device gets a like mix of dense and sparse ones.
  std::uint32_t first_group, group_stride, groups;
  Real *ax, *ay, *az, *phi;  // the caller's order; phi may be nullptr
  unsigned* overflow;        // set (pinned, mapped) when a warp's stack had no room: no result
};

// Enqueues the pass on `stream` (the device current).
template <class Real>
void launch_tree_walk(const TreePass<Real>& pass, cudaStream_t stream);

// to[i] += from[i] for i < count: one device's results, zero where another device's bodies
// are, added into the first's — exact, so the sum is the one device's, bit for bit.
template <class Real>
void launch_tree_add(const Real* from, Real* to, std::size_t count, cudaStream_t stream);

}  // namespace orrery::cuda
