// SPDX-License-Identifier: MIT
// The walking groups of the GPU tree (cuda_octree.hpp): runs of at most one warp's worth of
// consecutive sorted bodies, each inside one "super-node" — a node of at most `super` bodies
// whose parent holds more (or a leaf) — and cut at its leaves where it can. Consecutive bodies
// alone would make tight groups almost everywhere and, now and then, a group whose bodies lie on
// both sides of the system: its box holds everything, nothing is far from it, and its warp sums
// nearly all N bodies while the rest of the GPU waits. A super-node bounds every box; packing
// its leaves fills the warp (J. Bédorf et al. 2012 make Bonsai's groups the same way, from the
// sorted bodies with a cut where a box grows too large). One thread per super-node packs its
// leaves greedily, twice: once to count, once (after a prefix sum) to write.
#include "nbody/tree/cuda/cuda_octree.hpp"

#include <cub/device/device_scan.cuh>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cuda/tree_build_grid.hpp"

namespace orrery::cuda {

namespace {

// flag[dfs of k] = 1 for every super-node k: a child of a cell of more than `super` bodies that
// holds at most `super` or is a leaf, or the root when it holds at most `super` or is a leaf.
__global__ void mark_super_nodes(const std::uint32_t* begin, const std::uint32_t* end,
                                 const std::uint32_t* first_child, const std::uint32_t* children,
                                 const std::uint32_t* dfs, std::uint32_t nodes, std::uint32_t super,
                                 std::uint32_t* flag) {
  const std::uint32_t c = blockIdx.x * kBuildThreads + threadIdx.x;
  if (c >= nodes) return;
  auto small = [&](std::uint32_t k) { return end[k] - begin[k] <= super || children[k] == 0; };
  if (c == 0 && small(0)) flag[dfs[0]] = 1;
  if (children[c] == 0 || end[c] - begin[c] <= super) return;
  for (std::uint32_t k = first_child[c]; k < first_child[c] + children[c]; ++k)
    if (small(k)) flag[dfs[k]] = 1;
}

// Packs the leaves of the subtree at depth-first node d into groups of at most `group` bodies,
// calling emit(begin, end) for each in order; returns how many.
template <class Emit>
__device__ std::uint32_t pack_leaves(const TreeLink* link, std::uint32_t d, std::uint32_t group,
                                     Emit emit) {
  std::uint32_t count = 0, b = link[d].begin, e = b;
  for (std::uint32_t j = d; j < link[d].next;) {
    const TreeLink l = link[j];
    if (!l.leaf) {
      ++j;
      continue;
    }
    if (e > b && l.begin + l.count - b > group) emit(b, e), ++count, b = l.begin;
    e = l.begin + l.count;
    while (e - b > group) emit(b, b + group), ++count, b += group;  // a leaf of one point
    j = l.next;
  }
  emit(b, e);
  return count + 1;
}

__global__ void count_groups(const TreeLink* link, std::uint32_t nodes, std::uint32_t group,
                             std::uint32_t* flag_then_count) {
  const std::uint32_t d = blockIdx.x * kBuildThreads + threadIdx.x;
  if (d >= nodes || flag_then_count[d] == 0) return;
  flag_then_count[d] = pack_leaves(link, d, group, [](std::uint32_t, std::uint32_t) {});
}

__global__ void write_groups(const TreeLink* link, std::uint32_t nodes, std::uint32_t group,
                             const std::uint32_t* count, const std::uint32_t* offset,
                             WalkGroup* out, std::uint32_t* total) {
  const std::uint32_t d = blockIdx.x * kBuildThreads + threadIdx.x;
  if (d >= nodes) return;
  if (d == nodes - 1) *total = offset[d] + count[d];
  if (count[d] == 0) return;
  WalkGroup* at = out + offset[d];
  pack_leaves(link, d, group, [&](std::uint32_t b, std::uint32_t e) { *at++ = WalkGroup{b, e}; });
}

}  // namespace

template <class Real>
void CudaOctree<Real>::make_groups(int group, int super, cudaStream_t stream) {
  group_count_ = 0;
  if (n_ == 0) return;
  const std::uint32_t nodes = level_begin_.back();
  std::uint32_t* count = group_size_.reserve(nodes);
  std::uint32_t* offset = group_offset_.reserve(nodes);
  ORRERY_CUDA_CHECK(cudaMemsetAsync(count, 0, nodes * sizeof(std::uint32_t), stream),
                    "clearing the tree's group counts");
  mark_super_nodes<<<blocks_for(nodes), kBuildThreads, 0, stream>>>(
      begin_.get(), end_.get(), first_child_.get(), children_.get(), dfs_.get(), nodes,
      static_cast<std::uint32_t>(super), count);
  count_groups<<<blocks_for(nodes), kBuildThreads, 0, stream>>>(link_.get(), nodes,
                                                           static_cast<std::uint32_t>(group), count);
  std::size_t bytes = cub_temp_bytes_;
  ORRERY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp_.get(), bytes, count, offset, nodes,
                                                  stream),
                    "placing the tree's walking groups");
  // At most one group per leaf plus one per `group` bodies of a leaf.
  WalkGroup* out = groups_.reserve(nodes + n_ / static_cast<std::size_t>(group) + 1);
  std::uint32_t* total = readback_.reserve(1);
  write_groups<<<blocks_for(nodes), kBuildThreads, 0, stream>>>(
      link_.get(), nodes, static_cast<std::uint32_t>(group), count, offset, out, total);
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "forming the tree's walking groups");
  group_count_ = *total;
}

template void CudaOctree<float>::make_groups(int, int, cudaStream_t);
template void CudaOctree<double>::make_groups(int, int, cudaStream_t);

}  // namespace orrery::cuda
