// SPDX-License-Identifier: MIT
// What the GPU tree build's kernels share (cuda_octree.cu, octree_layout.cu, walk_groups.cu): one
// thread per body, cell or node in blocks of kBuildThreads, and the level-order node arrays the
// split writes. No fmt here: .cu files include it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace orrery::cuda {

inline constexpr int kBuildThreads = 256;

inline unsigned blocks_for(std::size_t work) {
  return static_cast<unsigned>((work + kBuildThreads - 1) / kBuildThreads);
}

// The nodes of the tree in level order, as the split leaves them: each cell's bodies
// [begin, end) and its children first_child .. first_child + children − 1.
struct LevelNodes {
  const std::uint32_t *begin, *end, *first_child, *children;
};

}  // namespace orrery::cuda
