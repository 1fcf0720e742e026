// SPDX-License-Identifier: MIT
// The GPU octree build (cuda_octree.hpp): bounding cube, Morton keys, CUB's radix sort, the
// levels split top-down, subtree sizes and moments bottom-up, depth-first positions top-down,
// and one permutation into depth-first order. Every step is the CPU build's arithmetic
// (nbody/tree/cpu/octree.cpp) on the same sorted bodies: keys from (x − lo)·scale in double,
// moments accumulated in double and rounded once (explicit fused multiply-adds only, --fmad=false).
#include "nbody/tree/cuda/cuda_octree.hpp"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cell_moments.hpp"
#include "orrery/core/morton.hpp"
#include "orrery/physics/multipole.hpp"

namespace orrery::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kBoundBlocks = 1024;

unsigned blocks_for(std::size_t work) {
  return static_cast<unsigned>((work + kThreads - 1) / kThreads);
}

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
__global__ void __launch_bounds__(kThreads)
    bounds_partial(const Real* x, const Real* y, const Real* z, std::size_t n, Real* partial) {
  using Reduce = cub::BlockReduce<Real, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const Real* p[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    Real lo = p[a][0], hi = p[a][0];
    for (std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * kThreads) {
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

// frame = lo x, y, z and the scale to [0, 1) of the cube, as the CPU build computes them.
template <class Real>
__global__ void bounds_final(const Real* partial, int blocks, double* frame) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  Real lo[3], hi[3];
  for (int a = 0; a < 3; ++a) lo[a] = partial[a], hi[a] = partial[3 + a];
  for (int b = 1; b < blocks; ++b)
    for (int a = 0; a < 3; ++a) {
      const Real l = partial[6 * b + a], h = partial[6 * b + 3 + a];
      lo[a] = l < lo[a] ? l : lo[a];
      hi[a] = h > hi[a] ? h : hi[a];
    }
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
  const std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
  if (i >= n) return;
  key[i] = morton_key_in_cube<double>(x[i], y[i], z[i], frame[0], frame[1], frame[2], frame[3]);
  index[i] = static_cast<std::uint32_t>(i);
}

template <class Real>
__global__ void gather_bodies(const Real* x, const Real* y, const Real* z, const Real* mass,
                              const Real* half_eps2, const std::uint32_t* original, std::size_t n,
                              Real4<Real>* body, Real* body_h) {
  const std::size_t s = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
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

__global__ void count_children(const std::uint64_t* key, const std::uint32_t* begin,
                               const std::uint32_t* end, std::uint32_t first, std::uint32_t last,
                               int level, int leaf_size, std::uint32_t* children) {
  const std::uint32_t c = first + blockIdx.x * kThreads + threadIdx.x;
  if (c >= last) return;
  const std::uint32_t b = begin[c], e = end[c];
  std::uint32_t count = 0;
  if (splits(key, b, e, level, leaf_size)) {
    const int shift = 3 * (kMortonBitsPerAxis - 1 - level);
    std::uint32_t s = b;
    for (unsigned d = 1; d <= 8; ++d) {
      const std::uint32_t t = d == 8 ? e : digit_start(key, s, e, shift, d);
      count += t > s;
      s = t;
    }
  }
  children[c] = count;
}

// Writes the children of each splitting cell of the level at last + offset (if they fit in
// `capacity`), and the level's child count to *total.
__global__ void write_children(const std::uint64_t* key, std::uint32_t* begin, std::uint32_t* end,
                               const std::uint32_t* children, const std::uint32_t* offset,
                               std::uint32_t first, std::uint32_t last, int level,
                               std::size_t capacity, std::uint32_t* first_child,
                               std::uint32_t* total) {
  const std::uint32_t c = first + blockIdx.x * kThreads + threadIdx.x;
  if (c >= last) return;
  if (c == last - 1) *total = offset[c] + children[c];
  const std::uint32_t fc = last + offset[c];
  first_child[c] = fc;
  if (children[c] == 0) return;
  const std::uint32_t b = begin[c], e = end[c];
  const int shift = 3 * (kMortonBitsPerAxis - 1 - level);
  std::uint32_t s = b, k = fc;
  for (unsigned d = 1; d <= 8; ++d) {
    const std::uint32_t t = d == 8 ? e : digit_start(key, s, e, shift, d);
    if (t > s) {
      if (k < capacity) begin[k] = s, end[k] = t;
      ++k;
    }
    s = t;
  }
}

struct LevelNodes {
  const std::uint32_t *begin, *end, *first_child, *children;
};

// Moments, box and subtree size of each cell of one level, from its bodies (a leaf) or its
// children (already done: the levels go bottom-up), as Octree::build_node on the CPU.
template <class Real>
__global__ void level_moments(LevelNodes t, std::uint32_t first, std::uint32_t last,
                              const Real4<Real>* body, const Real* body_h, Real global_half_eps2,
                              Real4<Real>* com, Real4<Real>* qa, Real4<Real>* qb,
                              Real4<Real>* box_lo, Real4<Real>* box_hi, std::uint32_t* subtree) {
  const std::uint32_t c = first + blockIdx.x * kThreads + threadIdx.x;
  if (c >= last) return;
  using W = double;
  const Real inf = Real(INFINITY);
  Real lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
  MonopoleSum<W> sum;
  W cx, cy, cz;
  Real first_h;
  Quadrupole<W> q;
  std::uint32_t size = 1;
  const std::uint32_t nc = t.children[c], fc = t.first_child[c];
  if (nc == 0) {
    const std::uint32_t b = t.begin[c], e = t.end[c];
    for (std::uint32_t s = b; s < e; ++s) {
      const Real4<Real> p = body[s];
      sum.add(p.w, p.x, p.y, p.z, body_h ? body_h[s] : global_half_eps2);
      const Real v[3] = {p.x, p.y, p.z};
      for (int a = 0; a < 3; ++a) lo[a] = v[a] < lo[a] ? v[a] : lo[a], hi[a] = v[a] > hi[a] ? v[a] : hi[a];
    }
    const Real4<Real> p0 = body[b];
    cx = sum.cx(p0.x), cy = sum.cy(p0.y), cz = sum.cz(p0.z);
    for (std::uint32_t s = b; s < e; ++s) {
      const Real4<Real> p = body[s];
      add_point_quadrupole<W>(q, p.w, W(p.x) - cx, W(p.y) - cy, W(p.z) - cz);
    }
    first_h = body_h ? body_h[b] : global_half_eps2;
  } else {
    for (std::uint32_t k = fc; k < fc + nc; ++k) {
      const Real4<Real> ck = com[k];
      sum.add(ck.w, ck.x, ck.y, ck.z, qb[k].z);
      const Real4<Real> l = box_lo[k], h = box_hi[k];
      const Real kl[3] = {l.x, l.y, l.z}, kh[3] = {h.x, h.y, h.z};
      for (int a = 0; a < 3; ++a) lo[a] = kl[a] < lo[a] ? kl[a] : lo[a], hi[a] = kh[a] > hi[a] ? kh[a] : hi[a];
      size += subtree[k];
    }
    const Real4<Real> c0 = com[fc];
    cx = sum.cx(c0.x), cy = sum.cy(c0.y), cz = sum.cz(c0.z);
    for (std::uint32_t k = fc; k < fc + nc; ++k) {
      const Real4<Real> ck = com[k], a = qa[k], b = qb[k];
      add_child_quadrupole<W>(q, Quadrupole<W>{W(a.x), W(a.y), W(a.z), W(a.w), W(b.x), W(b.y)},
                              W(ck.w), W(ck.x) - cx, W(ck.y) - cy, W(ck.z) - cz);
    }
    first_h = qb[fc].z;
  }
  Real side = hi[0] - lo[0];
  side = hi[1] - lo[1] > side ? hi[1] - lo[1] : side;
  side = hi[2] - lo[2] > side ? hi[2] - lo[2] : side;
  com[c] = Real4<Real>{Real(cx), Real(cy), Real(cz), Real(sum.m)};
  qa[c] = Real4<Real>{Real(q.xx), Real(q.xy), Real(q.xz), Real(q.yy)};
  qb[c] = Real4<Real>{Real(q.yz), Real(q.zz), Real(sum.half_eps2(first_h)), side * side};
  box_lo[c] = Real4<Real>{lo[0], lo[1], lo[2], Real(0)};
  box_hi[c] = Real4<Real>{hi[0], hi[1], hi[2], Real(0)};
  subtree[c] = size;
}

// Depth-first positions of the children of one level's cells: a parent's position plus one,
// then each child after its elder siblings' subtrees.
__global__ void place_children(LevelNodes t, std::uint32_t first, std::uint32_t last,
                               const std::uint32_t* subtree, std::uint32_t* dfs) {
  const std::uint32_t c = first + blockIdx.x * kThreads + threadIdx.x;
  if (c >= last) return;
  std::uint32_t at = dfs[c] + 1;
  for (std::uint32_t k = t.first_child[c]; k < t.first_child[c] + t.children[c]; ++k) {
    dfs[k] = at;
    at += subtree[k];
  }
}

template <class Real>
__global__ void to_depth_first(LevelNodes t, std::uint32_t nodes, const std::uint32_t* dfs,
                               const std::uint32_t* subtree, const Real4<Real>* com_lv,
                               const Real4<Real>* qa_lv, const Real4<Real>* qb_lv,
                               Real4<Real>* com, Real4<Real>* qa, Real4<Real>* qb, TreeLink* link) {
  const std::uint32_t c = blockIdx.x * kThreads + threadIdx.x;
  if (c >= nodes) return;
  const std::uint32_t d = dfs[c];
  com[d] = com_lv[c], qa[d] = qa_lv[c], qb[d] = qb_lv[c];
  link[d] = TreeLink{d + subtree[c], t.begin[c], t.end[c] - t.begin[c], t.children[c] == 0 ? 1u : 0u};
}

}  // namespace

template <class Real>
void CudaOctree<Real>::sort_bodies(const Real* x, const Real* y, const Real* z, const Real* mass,
                                   const Real* half_eps2, std::size_t n, cudaStream_t stream) {
  const int bound_blocks = static_cast<int>(std::min<std::size_t>(kBoundBlocks, blocks_for(n)));
  bounds_partial<<<bound_blocks, kThreads, 0, stream>>>(x, y, z, n,
                                                        bounds_partial_.reserve(6 * kBoundBlocks));
  bounds_final<<<1, 32, 0, stream>>>(bounds_partial_.get(), bound_blocks, frame_.reserve(4));
  morton_keys<<<blocks_for(n), kThreads, 0, stream>>>(x, y, z, n, frame_.get(), keys_.reserve(n),
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
  gather_bodies<<<blocks_for(n), kThreads, 0, stream>>>(
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
      count_children<<<blocks, kThreads, 0, stream>>>(keys_sorted_.get(), begin_.get(), end_.get(),
                                                      first, last, level, leaf_size,
                                                      children_.get());
      std::size_t bytes = cub_temp_bytes_;
      ORRERY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp_.get(), bytes,
                                                      children_.get() + first,
                                                      offset_.get() + first, last - first, stream),
                        "placing a tree level's children");
      write_children<<<blocks, kThreads, 0, stream>>>(
          keys_sorted_.get(), begin_.get(), end_.get(), children_.get(), offset_.get(), first,
          last, level, nodes_capacity_, first_child_.get(), total);
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
void CudaOctree<Real>::lay_out_and_sum(Real global_half_eps2, cudaStream_t stream) {
  const std::uint32_t nodes = level_begin_.back();
  const LevelNodes t{begin_.get(), end_.get(), first_child_.get(), children_.get()};
  // Level-order moments live in the second half of com_, quad_a_, quad_b_ until the permutation.
  Real4<Real>* com_lv = com_.get() + nodes_capacity_;
  Real4<Real>* qa_lv = quad_a_.get() + nodes_capacity_;
  Real4<Real>* qb_lv = quad_b_.get() + nodes_capacity_;
  for (int level = depth() - 1; level >= 0; --level) {
    const std::uint32_t first = level_begin_[level], last = level_begin_[level + 1];
    level_moments<Real><<<blocks_for(last - first), kThreads, 0, stream>>>(
        t, first, last, body_.get(), own_softening_ ? body_h_.get() : nullptr, global_half_eps2,
        com_lv, qa_lv, qb_lv, box_lo_.get(), box_hi_.get(), subtree_.get());
  }
  ORRERY_CUDA_CHECK(cudaMemsetAsync(dfs_.get(), 0, sizeof(std::uint32_t), stream),
                    "placing the tree's root");
  for (int level = 0; level + 1 < depth(); ++level) {
    const std::uint32_t first = level_begin_[level], last = level_begin_[level + 1];
    place_children<<<blocks_for(last - first), kThreads, 0, stream>>>(t, first, last,
                                                                      subtree_.get(), dfs_.get());
  }
  to_depth_first<Real><<<blocks_for(nodes), kThreads, 0, stream>>>(
      t, nodes, dfs_.get(), subtree_.get(), com_lv, qa_lv, qb_lv, com_.get(), quad_a_.get(),
      quad_b_.get(), link_.get());
  ORRERY_CUDA_CHECK(cudaGetLastError(), "summing the tree's moments");
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
