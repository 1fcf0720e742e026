// SPDX-License-Identifier: MIT
// The GPU octree build (cuda_octree.hpp), its second half: the moments summed bottom-up one level
// at a time (physics/multipole.hpp, nbody/tree/cell_moments.hpp: the CPU build's formulas,
// accumulated in double and rounded once; explicit fused multiply-adds only, --fmad=false), the
// depth-first positions top-down from the subtree sizes, and one permutation of the nodes into
// depth-first order with their skip links.
#include <cmath>

#include "device/cuda/cuda_check.hpp"
#include "nbody/tree/cell_moments.hpp"
#include "nbody/tree/cuda/cuda_octree.hpp"
#include "nbody/tree/cuda/tree_build_grid.hpp"
#include "orrery/physics/multipole.hpp"

namespace orrery::cuda {

namespace {

// Moments, box and subtree size of each cell of one level, from its bodies (a leaf) or its
// children (already done: the levels go bottom-up), as Octree::build_node on the CPU.
template <class Real>
__global__ void level_moments(LevelNodes t, std::uint32_t first, std::uint32_t last,
                              const Real4<Real>* body, const Real* body_h, Real global_half_eps2,
                              Real4<Real>* com, Real4<Real>* qa, Real4<Real>* qb,
                              Real4<Real>* box_lo, Real4<Real>* box_hi, std::uint32_t* subtree) {
  const std::uint32_t c = first + blockIdx.x * kBuildThreads + threadIdx.x;
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
  const std::uint32_t c = first + blockIdx.x * kBuildThreads + threadIdx.x;
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
  const std::uint32_t c = blockIdx.x * kBuildThreads + threadIdx.x;
  if (c >= nodes) return;
  const std::uint32_t d = dfs[c];
  com[d] = com_lv[c], qa[d] = qa_lv[c], qb[d] = qb_lv[c];
  link[d] = TreeLink{d + subtree[c], t.begin[c], t.end[c] - t.begin[c], t.children[c] == 0 ? 1u : 0u};
}

}  // namespace

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
    level_moments<Real><<<blocks_for(last - first), kBuildThreads, 0, stream>>>(
        t, first, last, body_.get(), own_softening_ ? body_h_.get() : nullptr, global_half_eps2,
        com_lv, qa_lv, qb_lv, box_lo_.get(), box_hi_.get(), subtree_.get());
  }
  ORRERY_CUDA_CHECK(cudaMemsetAsync(dfs_.get(), 0, sizeof(std::uint32_t), stream),
                    "placing the tree's root");
  for (int level = 0; level + 1 < depth(); ++level) {
    const std::uint32_t first = level_begin_[level], last = level_begin_[level + 1];
    place_children<<<blocks_for(last - first), kBuildThreads, 0, stream>>>(t, first, last,
                                                                      subtree_.get(), dfs_.get());
  }
  to_depth_first<Real><<<blocks_for(nodes), kBuildThreads, 0, stream>>>(
      t, nodes, dfs_.get(), subtree_.get(), com_lv, qa_lv, qb_lv, com_.get(), quad_a_.get(),
      quad_b_.get(), link_.get());
  ORRERY_CUDA_CHECK(cudaGetLastError(), "summing the tree's moments");
}

template void CudaOctree<float>::lay_out_and_sum(float, cudaStream_t);
template void CudaOctree<double>::lay_out_and_sum(double, cudaStream_t);

}  // namespace orrery::cuda
