// SPDX-License-Identifier: MIT
// One group's walk of the octree (octree.hpp), without a stack: from the root, a cell far
// enough from every target of the group is taken whole, size < θ·d with d the distance from
// the cell's centre of mass to the group's bounding box (J. Barnes, J. Comput. Phys. 87, 161,
// 1990, for walks by groups); a leaf that is not is taken body by body; any other cell is
// opened. A cell that holds the group is always opened, so no target sees itself through a
// multipole. θ = 0 opens every cell: the lists then hold every body, the direct sum.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "nbody/tree/cell_opening.hpp"
#include "octree.hpp"
#include "tree_kernel.hpp"

namespace orrery::cpu {

template <class Real>
struct GroupBox {
  Real lo[3], hi[3];
};

template <class Real>
GroupBox<Real> group_box(const SortedBodies<Real>& b, const OctreeNode<Real>& group) {
  GroupBox<Real> box{{b.x[group.begin], b.y[group.begin], b.z[group.begin]},
                     {b.x[group.begin], b.y[group.begin], b.z[group.begin]}};
  for (std::uint32_t s = group.begin + 1; s < group.begin + group.count; ++s) {
    const Real p[3] = {b.x[s], b.y[s], b.z[s]};
    for (int a = 0; a < 3; ++a)
      box.lo[a] = std::min(box.lo[a], p[a]), box.hi[a] = std::max(box.hi[a], p[a]);
  }
  return box;
}

template <class Real>
void clear_list(SourceList<Real>& list) {
  list.size = 0;
}

template <class Real>
void push_body(SourceList<Real>& list, Real x, Real y, Real z, Real m, Real h) {
  if (list.x.size() <= list.size)
    for (auto* a : {&list.x, &list.y, &list.z, &list.mass, &list.half_eps2})
      a->resize(std::max<std::size_t>(64, 2 * list.size + 2));
  list.x[list.size] = x, list.y[list.size] = y, list.z[list.size] = z;
  list.mass[list.size] = m, list.half_eps2[list.size] = h;
  ++list.size;
}

template <class Real>
void push_cell(SourceList<Real>& list, const OctreeNode<Real>& c, const Quadrupole<Real>& q) {
  if (list.qxx.size() <= list.size)
    for (auto* a : {&list.qxx, &list.qxy, &list.qxz, &list.qyy, &list.qyz, &list.qzz})
      a->resize(std::max<std::size_t>(64, 2 * list.size + 2));
  list.qxx[list.size] = q.xx, list.qxy[list.size] = q.xy, list.qxz[list.size] = q.xz;
  list.qyy[list.size] = q.yy, list.qyz[list.size] = q.yz, list.qzz[list.size] = q.zz;
  push_body(list, c.cx, c.cy, c.cz, c.mass, c.half_eps2);
}

// Pads a list with massless entries (at the origin, zero moments) to a multiple of `pad`.
template <class Real>
void pad_list(SourceList<Real>& list, std::size_t pad, bool cells) {
  while (list.size % pad != 0) {
    if (cells)
      push_cell(list, OctreeNode<Real>{}, Quadrupole<Real>{});
    else
      push_body(list, Real(0), Real(0), Real(0), Real(0), Real(0));
  }
}

// Appends to the lists what `tree` gives the targets in `box`: cells taken whole, the bodies of
// opened leaves. `g` is the group's node when the targets are of this tree (a cell holding it
// is opened), anything past the last node otherwise. A leaf without bodies (a cell another
// process sent whole: Octree::assign) is taken whole.
template <class Real>
void walk_sources(const Octree<Real>& tree, const GroupBox<Real>& box, std::uint32_t g,
                  Real theta, SourceList<Real>& bodies, SourceList<Real>& cells) {
  const auto& nodes = tree.nodes();
  const auto& quads = tree.quadrupoles();
  const SortedBodies<Real>& b = tree.bodies();
  const Real theta2 = theta * theta;
  for (std::uint32_t i = 0; i < nodes.size();) {
    const OctreeNode<Real>& n = nodes[i];
    const bool holds_group = i <= g && g < n.next;
    if (!holds_group) {
      const Real d2 = distance2_to_box(box.lo, box.hi, n.cx, n.cy, n.cz);
      if (taken_whole(n.size * n.size, theta2, d2) || (n.leaf && n.count == 0)) {
        push_cell(cells, n, quads[i]);
        i = n.next;
        continue;
      }
    }
    if (n.leaf || i == g) {
      for (std::uint32_t s = n.begin; s < n.begin + n.count; ++s)
        push_body(bodies, b.x[s], b.y[s], b.z[s], b.mass[s], b.half_eps2[s]);
      i = n.next;
    } else {
      ++i;
    }
  }
}

// The lists of group node `g`.
template <class Real>
void walk_group(const Octree<Real>& tree, std::uint32_t g, Real theta, SourceList<Real>& bodies,
                SourceList<Real>& cells) {
  clear_list(bodies);
  clear_list(cells);
  walk_sources(tree, group_box(tree.bodies(), tree.nodes()[g]), g, theta, bodies, cells);
}

}  // namespace orrery::cpu
