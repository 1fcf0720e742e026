// SPDX-License-Identifier: MIT
// The GPU octree build (cuda_octree.hpp), its first half: bounding cube, Morton keys, CUB's radix
// sort, and the levels split top-down; octree_layout.cu sums the moments and lays the nodes out
// depth-first. Every step is the CPU build's arithmetic (nbody/tree/cpu/octree.cpp) on the same
// sorted bodies: keys from (x − lo)·scale in double (core/morton.hpp).
#include "nbody/tree/cuda/cuda_octree.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cuda/tree_build_grid.hpp"
#include "orrery/core/morton.hpp"

namespace orrery::cuda {

namespace {

constexpr int kBoundBlocks = 1024;

template <class Real>
struct MinOp {
  __device__ Real operator()(Real a, Real b) const { return b < a ? b : a; }
};
template <class Real>
struct MaxOp {
  __device__ Real operator()(Real a, Real b) const { return b > a ? b : a; }
};

// Per block: the least and greatest x, y, z (6 values) of a grid-stride share of the bodies.
template <class Real>
__global__ void __launch_bounds__(kBuildThreads)
    bounds_partial(const Real* x, const Real* y, const Real* z, std::size_t n, Real* partial) {
  using Reduce = cub::BlockReduce<Real, kBuildThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const Real* p[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    Real lo = p[a][0], hi = p[a][0];
    for (std::size_t i = blockIdx.x * std::size_t(kBuildThreads) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * kBuildThreads) {
      const Real v = p[a][i];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    const Real l = Reduce(temp).Reduce(lo, MinOp<Real>{});
    __syncthreads();
    const Real h = Reduce(temp).Reduce(hi, MaxOp<Real>{});
    __syncthreads();
    if (threadIdx.x == 0) partial[6 * blockIdx.x + a] = l, partial[6 * blockIdx.x + 3 + a] = h;
  }
}

// frame = lo x, y, z and the scale to [0, 1) of the cube, as the CPU build computes them. The
// partials are combined by a block (min and max are exact, so any order gives the CPU's bits).
template <class Real>
__global__ void __launch_bounds__(kBuildThreads)
    bounds_final(const Real* partial, int blocks, double* frame) {
  using Reduce = cub::BlockReduce<Real, kBuildThreads>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ Real lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    Real l = partial[a], h = partial[3 + a];
    for (int b = threadIdx.x; b < blocks; b += kBuildThreads) {
      const Real pl = partial[6 * b + a], ph = partial[6 * b + 3 + a];
      l = pl < l ? pl : l;
      h = ph > h ? ph : h;
    }
    const Real rl = Reduce(temp).Reduce(l, MinOp<Real>{});
    __syncthreads();
    const Real rh = Reduce(temp).Reduce(h, MaxOp<Real>{});
    __syncthreads();
    if (threadIdx.x == 0) lo[a] = rl, hi[a] = rh;
  }
  if (threadIdx.x != 0) return;
  double side = 0;
  for (int a = 0; a < 3; ++a) {
    const double s = double(hi[a]) - double(lo[a]);
    side = s > side ? s : side;
  }
  for (int a = 0; a < 3; ++a) frame[a] = lo[a];
  frame[3] = morton_scale(side);
}

template <class Real>
__global__ void morton_keys(const Real* x, const Real* y, const Real* z, std::size_t n,
                            const double* frame, std::uint64_t* key, std::uint32_t* index) {
  const std::size_t i = blockIdx.x * std::size_t(kBuildThreads) + threadIdx.x;
  if (i >= n) return;
  key[i] = morton_key_in_cube<double>(x[i], y[i], z[i], frame[0], frame[1], frame[2], frame[3]);
  index[i] = static_cast<std::uint32_t>(i);
}

template <class Real>
__global__ void gather_bodies(const Real* x, const Real* y, const Real* z, const Real* mass,
                              const Real* half_eps2, const std::uint32_t* original, std::size_t n,
                              Real4<Real>* body, Real* body_h) {
  const std::size_t s = blockIdx.x * std::size_t(kBuildThreads) + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t i = original[s];
  body[s] = Real4<Real>{x[i], y[i], z[i], mass[i]};
  if (half_eps2) body_h[s] = half_eps2[i];
}

__global__ void root_node(std::uint32_t n, std::uint32_t* begin, std::uint32_t* end) {
  begin[0] = 0, end[0] = n;
}

// The first position in [b, e) whose octant digit at `shift` is ≥ d (the digits of a cell's
// sorted keys do not decrease).
__device__ std::uint32_t digit_start(const std::uint64_t* key, std::uint32_t b, std::uint32_t e,
                                     int shift, unsigned d) {
  while (b < e) {
    const std::uint32_t m = b + (e - b) / 2;
    if (((key[m] >> shift) & 7u) < d)
      b = m + 1;
    else
      e = m;
  }
  return b;
}

// Whether cell c of `level` splits: more than leaf_size bodies, not all on one key, not at the
// finest level (the CPU's rule).
__device__ bool splits(const std::uint64_t* key, std::uint32_t b, std::uint32_t e, int level,
                       int leaf_size) {
  return e - b > std::uint32_t(leaf_size) && key[b] != key[e - 1] && level < kMortonBitsPerAxis;
}

// Eight threads per cell of the level, thread d finding where octant digit d begins among the
// cell's sorted keys: the eight searches side by side rather than one after another (the top
// levels' cells hold most of the bodies, and a search there is a chain of ~20 dependent loads).
// Writes the starts (start[8(c − first) + d], octant 0 at the cell's begin) and the number of
// non-empty octants of a splitting cell (0 for one that does not split).
__global__ void find_octants(const std::uint64_t* key, const std::uint32_t* begin,
                             const std::uint32_t* end, std::uint32_t first, std::uint32_t last,
                             int level, int leaf_size, std::uint32_t* start,
                             std::uint32_t* children) {
  const std::uint32_t t = blockIdx.x * kBuildThreads + threadIdx.x;
  const std::uint32_t c = first + t / 8;
  const unsigned d = t % 8;
  const bool cell = c < last;
  const std::uint32_t b = cell ? begin[c] : 0, e = cell ? end[c] : 0;
  const int shift = 3 * (kMortonBitsPerAxis - 1 - level);
  const bool split = cell && splits(key, b, e, level, leaf_size);
  const std::uint32_t s = split && d > 0 ? digit_start(key, b, e, shift, d) : b;
  // This octant ends where the next begins (the cell's end for the last): the next thread's.
  const unsigned segment = 0xffu << (threadIdx.x & 24u);
  const std::uint32_t next = __shfl_down_sync(0xffffffffu, s, 1);
  const bool filled = split && (d == 7 ? e : next) > s;
  const unsigned count = __popc(__ballot_sync(0xffffffffu, filled) & segment);
  if (!cell) return;
  start[8 * (c - first) + d] = s;
  if (d == 0) children[c] = count;
}

// Writes the children of each splitting cell of the level at last + offset (if they fit in
// `capacity`), and the level's child count to *total.
__global__ void write_children(const std::uint32_t* start, std::uint32_t* begin, std::uint32_t* end,
                               const std::uint32_t* children, const std::uint32_t* offset,
                               std::uint32_t first, std::uint32_t last, std::size_t capacity,
                               std::uint32_t* first_child, std::uint32_t* total) {
  const std::uint32_t c = first + blockIdx.x * kBuildThreads + threadIdx.x;
  if (c >= last) return;
  if (c == last - 1) *total = offset[c] + children[c];
  const std::uint32_t fc = last + offset[c];
  first_child[c] = fc;
  if (children[c] == 0) return;
  const std::uint32_t* octant = start + 8 * std::size_t(c - first);
  const std::uint32_t e = end[c];
  std::uint32_t k = fc;
  for (unsigned d = 0; d < 8; ++d) {
    const std::uint32_t s = octant[d], t = d == 7 ? e : octant[d + 1];
    if (t > s) {
      if (k < capacity) begin[k] = s, end[k] = t;
      ++k;
    }
  }
}

}  // namespace

template <class Real>
void CudaOctree<Real>::sort_bodies(const Real* x, const Real* y, const Real* z, const Real* mass,
                                   const Real* half_eps2, std::size_t n, cudaStream_t stream) {
  const int bound_blocks = static_cast<int>(std::min<std::size_t>(kBoundBlocks, blocks_for(n)));
  bounds_partial<<<bound_blocks, kBuildThreads, 0, stream>>>(x, y, z, n,
                                                        bounds_partial_.reserve(6 * kBoundBlocks));
  bounds_final<<<1, kBuildThreads, 0, stream>>>(bounds_partial_.get(), bound_blocks, frame_.reserve(4));
  morton_keys<<<blocks_for(n), kBuildThreads, 0, stream>>>(x, y, z, n, frame_.get(), keys_.reserve(n),
                                                      index_.reserve(n));
  std::size_t bytes = 0;
  ORRERY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_.get(), keys_.get(),
                                                    index_.get(), index_.get(), n, 0,
                                                    3 * kMortonBitsPerAxis, stream),
                    "sizing the tree's key sort");
  cub_temp_bytes_ = std::max(cub_temp_bytes_, bytes);
  ORRERY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp_.reserve(cub_temp_bytes_), bytes,
                                                    keys_.get(), keys_sorted_.reserve(n),
                                                    index_.get(), original_.reserve(n), n, 0,
                                                    3 * kMortonBitsPerAxis, stream),
                    "sorting the tree's keys");
  gather_bodies<<<blocks_for(n), kBuildThreads, 0, stream>>>(
      x, y, z, mass, half_eps2, original_.get(), n, body_.reserve(n),
      half_eps2 ? body_h_.reserve(n) : nullptr);
  ORRERY_CUDA_CHECK(cudaGetLastError(), "sorting the bodies for the tree");
}

template <class Real>
void CudaOctree<Real>::ensure_node_capacity(std::size_t nodes, cudaStream_t stream) {
  if (nodes <= nodes_capacity_) return;
  ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "the tree build before growing its arrays");
  for (auto* a : {&begin_, &end_, &first_child_, &children_, &offset_, &subtree_, &dfs_})
    a->reserve(nodes);
  box_lo_.reserve(nodes), box_hi_.reserve(nodes);
  octant_start_.reserve(8 * nodes);
  // Twice: the level-order moments wait in the second half until the depth-first permutation.
  for (auto* a : {&com_, &quad_a_, &quad_b_}) a->reserve(2 * nodes);
  link_.reserve(nodes);
  std::size_t bytes = 0;
  ORRERY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, children_.get(), offset_.get(),
                                                  nodes, stream),
                    "sizing the tree's prefix sum");
  cub_temp_bytes_ = std::max(cub_temp_bytes_, bytes);
  cub_temp_.reserve(cub_temp_bytes_);
  nodes_capacity_ = nodes;
}

template <class Real>
void CudaOctree<Real>::split_levels(std::size_t n, int leaf_size, cudaStream_t stream) {
  std::uint32_t* total = readback_.reserve(1);
  // Levels hold disjoint ranges of bodies, so a tree rarely has more nodes than bodies over
  // half the leaf size; when it does, the split starts again with room for what it found.
  std::size_t capacity = std::max<std::size_t>(1024, 4 * n / std::max(1, leaf_size) + 64);
  for (;;) {
    ensure_node_capacity(capacity, stream);
    root_node<<<1, 1, 0, stream>>>(static_cast<std::uint32_t>(n), begin_.get(), end_.get());
    level_begin_.assign({0u, 1u});
    bool fits = true;
    for (int level = 0;; ++level) {
      const std::uint32_t first = level_begin_[level], last = level_begin_[level + 1];
      const unsigned blocks = blocks_for(last - first);
      find_octants<<<blocks_for(8 * std::size_t(last - first)), kBuildThreads, 0, stream>>>(
          keys_sorted_.get(), begin_.get(), end_.get(), first, last, level, leaf_size,
          octant_start_.get(), children_.get());
      std::size_t bytes = cub_temp_bytes_;
      ORRERY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp_.get(), bytes,
                                                      children_.get() + first,
                                                      offset_.get() + first, last - first, stream),
                        "placing a tree level's children");
      write_children<<<blocks, kBuildThreads, 0, stream>>>(
          octant_start_.get(), begin_.get(), end_.get(), children_.get(), offset_.get(), first,
          last, nodes_capacity_, first_child_.get(), total);
      ORRERY_CUDA_CHECK(cudaStreamSynchronize(stream), "splitting a level of the tree");
      const std::size_t next_end = std::size_t(last) + *total;
      if (next_end > nodes_capacity_) {
        capacity = 2 * next_end;
        fits = false;
        break;
      }
      if (*total == 0) break;
      level_begin_.push_back(static_cast<std::uint32_t>(next_end));
    }
    if (fits) return;
  }
}

template <class Real>
void CudaOctree<Real>::build(const Real* x, const Real* y, const Real* z, const Real* mass,
                             const Real* half_eps2, Real global_half_eps2, std::size_t n,
                             int leaf_size, cudaStream_t stream) {
  n_ = n;
  own_softening_ = half_eps2 != nullptr;
  level_begin_.assign({0u});
  if (n == 0) return;
  sort_bodies(x, y, z, mass, half_eps2, n, stream);
  split_levels(n, std::max(1, leaf_size), stream);
  lay_out_and_sum(global_half_eps2, stream);
}

template <class Real>
OctreeView<Real> CudaOctree<Real>::view() const {
  return {body_.get(),   own_softening_ ? body_h_.get() : nullptr,
          original_.get(), com_.get(), quad_a_.get(), quad_b_.get(), link_.get(), groups_.get(),
          n_,            level_begin_.back(), group_count_};
}

template class CudaOctree<float>;
template class CudaOctree<double>;

}  // namespace orrery::cuda
