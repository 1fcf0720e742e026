// SPDX-License-Identifier: MIT
// dist/tree_essential.hpp: a pruned copy of the octree in its depth-first order, skip links
// renumbered, and its bytes.
#include "dist/tree_essential.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "nbody/tree/cell_opening.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/float128.hpp"

namespace orrery::dist {

namespace {

template <class Real>
struct Pruned {
  std::vector<cpu::OctreeNode<Real>> nodes;
  std::vector<Quadrupole<Real>> quads;
  cpu::SortedBodies<Real> bodies;
};

template <class Real>
void prune(const cpu::Octree<Real>& tree, std::uint32_t i, const Real (&lo)[3],
           const Real (&hi)[3], Real theta2, Pruned<Real>& out) {
  const cpu::OctreeNode<Real>& n = tree.nodes()[i];
  const auto at = static_cast<std::uint32_t>(out.nodes.size());
  out.nodes.push_back(n);
  out.quads.push_back(tree.quadrupoles()[i]);
  cpu::OctreeNode<Real>& copy = out.nodes.back();
  if (taken_whole(n.size * n.size, theta2, distance2_to_box(lo, hi, n.cx, n.cy, n.cz))) {
    copy.leaf = true, copy.begin = 0, copy.count = 0, copy.next = at + 1;
    return;
  }
  if (n.leaf) {
    const cpu::SortedBodies<Real>& b = tree.bodies();
    cpu::SortedBodies<Real>& o = out.bodies;
    copy.begin = static_cast<std::uint32_t>(o.x.size()), copy.next = at + 1;
    for (std::uint32_t s = n.begin; s < n.begin + n.count; ++s) {
      o.x.push_back(b.x[s]), o.y.push_back(b.y[s]), o.z.push_back(b.z[s]);
      o.mass.push_back(b.mass[s]), o.half_eps2.push_back(b.half_eps2[s]);
    }
    return;
  }
  for (std::uint32_t c = i + 1; c < n.next; c = tree.nodes()[c].next)
    prune(tree, c, lo, hi, theta2, out);
  out.nodes[at].next = static_cast<std::uint32_t>(out.nodes.size());
}

template <class T>
void append_raw(std::vector<std::byte>& out, const std::vector<T>& v) {
  const std::size_t at = out.size();
  out.resize(at + v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data() + at, v.data(), v.size() * sizeof(T));
}

template <class T>
void take_raw(std::span<const std::byte> bytes, std::size_t& at, std::size_t count,
          std::vector<T>& v) {
  if (bytes.size() < at + count * sizeof(T))
    throw RunError(fmt::format("tree over ranks: a local essential tree of {} bytes is cut short",
                               bytes.size()));
  v.resize(count);
  if (count) std::memcpy(v.data(), bytes.data() + at, count * sizeof(T));
  at += count * sizeof(T);
}

}  // namespace

template <class Real>
void append_essential_tree(const cpu::Octree<Real>& tree, const Real (&lo)[3],
                           const Real (&hi)[3], Real theta, std::vector<std::byte>& out) {
  Pruned<Real> p;
  if (!tree.nodes().empty()) prune(tree, 0, lo, hi, theta * theta, p);
  const std::vector<std::uint64_t> sizes = {p.nodes.size(), p.bodies.x.size()};
  append_raw(out, sizes);
  append_raw(out, p.nodes);
  append_raw(out, p.quads);
  for (const auto* v : {&p.bodies.x, &p.bodies.y, &p.bodies.z, &p.bodies.mass,
                        &p.bodies.half_eps2})
    append_raw(out, *v);
}

template <class Real>
cpu::Octree<Real> read_essential_tree(std::span<const std::byte> bytes) {
  std::size_t at = 0;
  std::vector<std::uint64_t> sizes;
  take_raw(bytes, at, 2, sizes);
  std::vector<cpu::OctreeNode<Real>> nodes;
  std::vector<Quadrupole<Real>> quads;
  cpu::SortedBodies<Real> b;
  take_raw(bytes, at, sizes[0], nodes);
  take_raw(bytes, at, sizes[0], quads);
  for (auto* v : {&b.x, &b.y, &b.z, &b.mass, &b.half_eps2}) take_raw(bytes, at, sizes[1], *v);
  cpu::Octree<Real> tree;
  tree.assign(std::move(nodes), std::move(quads), std::move(b));
  return tree;
}

#define ORRERY_ESSENTIAL_TREE(Real)                                                              \
  template void append_essential_tree<Real>(const cpu::Octree<Real>&, const Real(&)[3],        \
                                            const Real(&)[3], Real, std::vector<std::byte>&);  \
  template cpu::Octree<Real> read_essential_tree<Real>(std::span<const std::byte>);
ORRERY_ESSENTIAL_TREE(float)
ORRERY_ESSENTIAL_TREE(double)
ORRERY_ESSENTIAL_TREE(float128)
#undef ORRERY_ESSENTIAL_TREE

}  // namespace orrery::dist
