// SPDX-License-Identifier: MIT
// Morton-ordered octree: keys, sort, top-down split, moments bottom-up by the parallel-axis
// theorem (physics/multipole.hpp). Moments are accumulated in double (or wider, for float128)
// and rounded once to the tree's precision.
#include "octree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/morton.hpp"
#include "nbody/tree/cell_moments.hpp"

namespace orrery::cpu {

namespace {

template <class Real>
using Wide = std::conditional_t<(sizeof(Real) > sizeof(double)), Real, double>;

// The octant bits of `key` below the `level` coarsest levels.
int octant(std::uint64_t key, int level) {
  return static_cast<int>(key >> (3 * (kMortonBitsPerAxis - 1 - level)) & 7);
}

}  // namespace

template <class Real>
void Octree<Real>::build(const Real* x, const Real* y, const Real* z, const Real* mass,
                         const Real* half_eps2, std::size_t n, int leaf_size) {
  if (n >= std::size_t{0xffffffff})
    throw InputError("tree engine: at most 4294967294 bodies per tree");
  leaf_size_ = std::max(1, leaf_size);
  nodes_.clear();
  quadrupoles_.clear();
  boxes_.clear();
  bodies_.original.resize(n);
  for (auto* a : {&bodies_.x, &bodies_.y, &bodies_.z, &bodies_.mass, &bodies_.half_eps2})
    a->resize(n);
  if (n == 0) return;

  // The bounding cube, its side widened a little so the largest coordinate maps inside.
  Real lo[3] = {x[0], y[0], z[0]}, hi[3] = {x[0], y[0], z[0]};
  for (std::size_t i = 1; i < n; ++i) {
    const Real p[3] = {x[i], y[i], z[i]};
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  }
  using W = Wide<Real>;
  W side = 0;
  for (int a = 0; a < 3; ++a) side = std::max(side, static_cast<W>(hi[a]) - static_cast<W>(lo[a]));
  const W scale = morton_scale(side);
  keys_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    keys_[i] = morton_key_in_cube<W>(x[i], y[i], z[i], lo[0], lo[1], lo[2], scale);
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  // Ties keep the caller's order, so the tree does not depend on the sort's implementation.
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys_[a] < keys_[b]; });
  std::vector<std::uint64_t> sorted_keys(n);
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = order_[s];
    sorted_keys[s] = keys_[i];
    bodies_.original[s] = i;
    bodies_.x[s] = x[i];
    bodies_.y[s] = y[i];
    bodies_.z[s] = z[i];
    bodies_.mass[s] = mass[i];
    bodies_.half_eps2[s] = half_eps2[i];
  }
  keys_.swap(sorted_keys);
  nodes_.reserve(2 * n / static_cast<std::size_t>(leaf_size_) + 16);
  build_node(0, n, 0);
  boxes_.clear();
}

template <class Real>
void Octree<Real>::leaf_moments(OctreeNode<Real>& node, Quadrupole<Real>& q, Real* box) const {
  using W = Wide<Real>;
  MonopoleSum<W> sum;
  const SortedBodies<Real>& b = bodies_;
  for (std::uint32_t s = node.begin; s < node.begin + node.count; ++s) {
    sum.add(b.mass[s], b.x[s], b.y[s], b.z[s], b.half_eps2[s]);
    const Real p[3] = {b.x[s], b.y[s], b.z[s]};
    for (int a = 0; a < 3; ++a) box[a] = std::min(box[a], p[a]), box[3 + a] = std::max(box[3 + a], p[a]);
  }
  const std::uint32_t f = node.begin;
  const W cx = sum.cx(b.x[f]), cy = sum.cy(b.y[f]), cz = sum.cz(b.z[f]), m = sum.m;
  Quadrupole<W> qw;
  for (std::uint32_t s = node.begin; s < node.begin + node.count; ++s)
    add_point_quadrupole<W>(qw, b.mass[s], static_cast<W>(b.x[s]) - cx,
                            static_cast<W>(b.y[s]) - cy, static_cast<W>(b.z[s]) - cz);
  node.mass = static_cast<Real>(m);
  node.cx = static_cast<Real>(cx), node.cy = static_cast<Real>(cy), node.cz = static_cast<Real>(cz);
  node.half_eps2 = static_cast<Real>(sum.half_eps2(b.half_eps2[f]));
  q = {static_cast<Real>(qw.xx), static_cast<Real>(qw.xy), static_cast<Real>(qw.xz),
       static_cast<Real>(qw.yy), static_cast<Real>(qw.yz), static_cast<Real>(qw.zz)};
}

template <class Real>
std::uint32_t Octree<Real>::build_node(std::size_t begin, std::size_t end, int level) {
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  quadrupoles_.push_back({});
  const Real inf = static_cast<Real>(std::numeric_limits<double>::infinity());
  boxes_.insert(boxes_.end(), {inf, inf, inf, -inf, -inf, -inf});
  OctreeNode<Real> node{};
  node.begin = static_cast<std::uint32_t>(begin);
  node.count = static_cast<std::uint32_t>(end - begin);
  const bool same_key = keys_[begin] == keys_[end - 1];
  node.leaf = end - begin <= static_cast<std::size_t>(leaf_size_) || same_key ||
              level >= kMortonBitsPerAxis;
  Real box[6] = {inf, inf, inf, -inf, -inf, -inf};
  Quadrupole<Real> q;
  if (node.leaf) {
    leaf_moments(node, q, box);
  } else {
    // Children: the runs of equal octant bits at this level, in key order.
    std::vector<std::uint32_t> children;
    std::size_t b = begin;
    while (b < end) {
      const int o = octant(keys_[b], level);
      const std::size_t e = static_cast<std::size_t>(
          std::partition_point(keys_.begin() + static_cast<std::ptrdiff_t>(b),
                               keys_.begin() + static_cast<std::ptrdiff_t>(end),
                               [&](std::uint64_t k) { return octant(k, level) == o; }) -
          keys_.begin());
      children.push_back(build_node(b, e, level + 1));
      b = e;
    }
    using W = Wide<Real>;
    MonopoleSum<W> sum;
    for (std::uint32_t c : children) {
      const OctreeNode<Real>& k = nodes_[c];
      sum.add(k.mass, k.cx, k.cy, k.cz, k.half_eps2);
      const Real* kb = &boxes_[6 * c];
      for (int a = 0; a < 3; ++a) box[a] = std::min(box[a], kb[a]), box[3 + a] = std::max(box[3 + a], kb[3 + a]);
    }
    const OctreeNode<Real>& first = nodes_[children.front()];
    const W cx = sum.cx(first.cx), cy = sum.cy(first.cy), cz = sum.cz(first.cz), m = sum.m;
    Quadrupole<W> qw;
    for (std::uint32_t c : children) {
      const OctreeNode<Real>& k = nodes_[c];
      const Quadrupole<Real>& kq = quadrupoles_[c];
      add_child_quadrupole<W>(qw, {W(kq.xx), W(kq.xy), W(kq.xz), W(kq.yy), W(kq.yz), W(kq.zz)},
                              W(k.mass), W(k.cx) - cx, W(k.cy) - cy, W(k.cz) - cz);
    }
    node.mass = static_cast<Real>(m);
    node.cx = static_cast<Real>(cx), node.cy = static_cast<Real>(cy), node.cz = static_cast<Real>(cz);
    node.half_eps2 = static_cast<Real>(sum.half_eps2(first.half_eps2));
    q = {static_cast<Real>(qw.xx), static_cast<Real>(qw.xy), static_cast<Real>(qw.xz),
         static_cast<Real>(qw.yy), static_cast<Real>(qw.yz), static_cast<Real>(qw.zz)};
  }
  node.size = std::max({box[3] - box[0], box[4] - box[1], box[5] - box[2]});
  node.next = static_cast<std::uint32_t>(nodes_.size());
  nodes_[index] = node;
  quadrupoles_[index] = q;
  std::copy(box, box + 6, boxes_.begin() + 6 * static_cast<std::ptrdiff_t>(index));
  return index;
}

template <class Real>
std::vector<std::uint32_t> Octree<Real>::groups(int group_size) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < nodes_.size();) {
    const OctreeNode<Real>& node = nodes_[i];
    if (node.leaf || node.count <= static_cast<std::uint32_t>(group_size)) {
      out.push_back(i);
      i = node.next;
    } else {
      ++i;
    }
  }
  return out;
}

template class Octree<float>;
template class Octree<double>;
template class Octree<float128>;

}  // namespace orrery::cpu
