// SPDX-License-Identifier: MIT
// The Barnes–Hut octree of the CUDA tree engine, built on the GPU every evaluation
// (cuda_octree.cu): the same tree as the CPU's (nbody/tree/cpu/octree.hpp) — bodies sorted by
// their 63-bit Morton key in the bounding cube (the keys computed with the CPU's operations, the
// sort stable, so the order is the CPU's), cells split while they hold more than `leaf_size`
// bodies, nodes stored depth-first with skip links — but built level by level, the way a GPU
// builds trees: every cell of a level finds its children's key ranges by binary search at once,
// a prefix sum places them (J. Bédorf, E. Gaburov & S. Portegies Zwart, J. Comput. Phys. 231,
// 2825, 2012, "Bonsai"; the sort is CUB's radix sort, D. Merrill & A. Grimshaw 2011). Subtree
// sizes bottom-up and depth-first positions top-down then lay the levels out depth-first, and
// the moments are summed bottom-up by the parallel-axis theorem (physics/multipole.hpp). No
// fmt here: the .cu files (cuda_octree.cu, octree_layout.cu, walk_groups.cu) include it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device/cuda/memory.hpp"

namespace orrery::cuda {

// Four values read with one load: a body (x, y, z, m) or a cell (centre of mass, mass).
template <class Real>
struct alignas(4 * sizeof(Real)) Real4 {
  Real x, y, z, w;
};

// A node's place in the depth-first order: the node after its subtree and its bodies.
struct alignas(16) TreeLink {
  std::uint32_t next, begin, count, leaf;
};

// A walking group: sorted bodies [begin, end), at most one warp's worth (walk_groups.cu).
struct WalkGroup {
  std::uint32_t begin, end;
};

// The tree as kernels read it (device pointers), nodes in depth-first order.
template <class Real>
struct OctreeView {
  const Real4<Real>* body;          // sorted bodies: position and mass
  const Real* body_h;               // sorted ε²/2, or nullptr when all bodies share the global ε
  const std::uint32_t* original;    // sorted position -> the caller's index
  const Real4<Real>* com;           // per node: centre of mass and mass
  const Real4<Real>* quad_a;        // per node: Q_xx, Q_xy, Q_xz, Q_yy
  const Real4<Real>* quad_b;        // per node: Q_yz, Q_zz, the node's ε²/2, its size²
  const TreeLink* link;
  const WalkGroup* groups;
  std::size_t bodies;
  std::uint32_t nodes, group_count;
};

template <class Real>
class CudaOctree {
 public:
  // Builds the tree of n bodies (device arrays in the caller's order; half_eps2 may be nullptr
  // when every body has ε²/2 = global_half_eps2) on `stream`, the device current. Waits for the
  // GPU once per level (the size of the next level decides the next launch).
  void build(const Real* x, const Real* y, const Real* z, const Real* mass, const Real* half_eps2,
             Real global_half_eps2, std::size_t n, int leaf_size, cudaStream_t stream);
  // The walking groups (walk_groups.cu) of at most `group` bodies, each inside a node of at
  // most `super` bodies; after build().
  void make_groups(int group, int super, cudaStream_t stream);
  OctreeView<Real> view() const;
  // Levels of the last build (the root's is 0).
  int depth() const { return static_cast<int>(level_begin_.size()) - 1; }

 private:
  void ensure_node_capacity(std::size_t nodes, cudaStream_t stream);
  void sort_bodies(const Real* x, const Real* y, const Real* z, const Real* mass,
                   const Real* half_eps2, std::size_t n, cudaStream_t stream);
  void split_levels(std::size_t n, int leaf_size, cudaStream_t stream);
  void lay_out_and_sum(Real global_half_eps2, cudaStream_t stream);

  std::size_t n_ = 0;
  bool own_softening_ = false;
  // Sorting.
  DeviceArray<double> frame_;  // lo x, y, z, scale
  DeviceArray<Real> bounds_partial_;
  DeviceArray<std::uint64_t> keys_, keys_sorted_;
  DeviceArray<std::uint32_t> index_, original_;
  DeviceArray<unsigned char> cub_temp_;
  std::size_t cub_temp_bytes_ = 0;
  DeviceArray<Real4<Real>> body_;
  DeviceArray<Real> body_h_;
  // Nodes in level order while building (capacity nodes_capacity_).
  std::size_t nodes_capacity_ = 0;
  DeviceArray<std::uint32_t> begin_, end_, first_child_, children_, offset_, subtree_, dfs_;
  DeviceArray<std::uint32_t> octant_start_;  // where each octant of a level's cells begins
  DeviceArray<Real4<Real>> box_lo_, box_hi_;
  // Nodes in depth-first order.
  DeviceArray<Real4<Real>> com_, quad_a_, quad_b_;
  DeviceArray<TreeLink> link_;
  // Walking groups.
  DeviceArray<std::uint32_t> group_size_, group_offset_;
  DeviceArray<WalkGroup> groups_;
  std::uint32_t group_count_ = 0;
  PinnedArray<std::uint32_t> readback_;
  std::vector<std::uint32_t> level_begin_;  // the first node of each level, and the end
};

}  // namespace orrery::cuda
