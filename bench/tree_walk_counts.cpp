// SPDX-License-Identifier: MIT
// What a group walk of the tree costs, counted on the CPU (docs/internals/gravity-tree-cuda.md,
// "Speed"): the CPU octree of a Plummer sphere (the benchmark's: seed 1, leaves of `leaf` bodies)
// walked group by group with the GPU's opening test (nbody/tree/cell_opening.hpp), for
//   - the GPU's groups (cuda/walk_groups.cu: leaves packed into runs of ≤ 32 or ≤ 64 bodies
//     inside super-nodes of ≤ `super` bodies), one warp each, one or two targets per lane;
//   - tree nodes of ≤ 32 or ≤ 64 bodies as groups;
//   - the textbook walk of one target at a time (on the sampled targets only).
// Per walk: groups, lanes filled, cells and bodies per group, and the lane-instructions per
// target a warp issues for its interactions alone — every lane of the warp runs every
// interaction of its group's list whether its slot holds a target or not:
//   Σ_groups 32 · (targets per lane) · (c · cells + b · bodies) / N,
// with c and b the instructions of one cell and one body interaction (arguments; bench/README.md
// gives the counts of the GPU kernel's SASS). Divided by the GPU's issue rate (lanes × clock),
// that is the walk's time at perfect issue, with the walk itself (the opening tests) on top.
// The error of |a| on 400 sampled targets against a double-precision direct sum is printed for
// each walk. One JSON line per walk.
//   orrery_tree_walk_counts [N=1000000] [leaf=16] [theta=0.5] [c=35] [b=16]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "nbody/tree/cell_opening.hpp"
#include "nbody/tree/cpu/octree.hpp"
#include "orrery/physics/multipole.hpp"
#include "orrery/scenes/scene_registry.hpp"

namespace {

using namespace orrery;
using Real = float;
constexpr int kSamples = 400;
constexpr double kEps2 = 1e-8;  // the benchmark's ε = 10⁻⁴

struct Acc {
  double x = 0, y = 0, z = 0;
  void add_body(double dx, double dy, double dz, double m) {
    const double inv_r = 1 / std::sqrt(dx * dx + dy * dy + dz * dz + kEps2);
    const double f = m * inv_r * inv_r * inv_r;
    x += f * dx, y += f * dy, z += f * dz;
  }
};

struct Range {
  std::uint32_t begin, end;
};

struct Lists {
  std::vector<std::uint32_t> cells, bodies;
};

class Counter {
 public:
  Counter(std::size_t n, int leaf, double theta, double cell_cost, double body_cost)
      : theta2_(Real(theta * theta)), cell_cost_(cell_cost), body_cost_(body_cost) {
    const auto p = make_scene("plummer", {{"n", ParamValue{static_cast<std::int64_t>(n)}},
                                          {"seed", ParamValue{std::int64_t{1}}}})
                       .particles;
    const std::vector<Real> x(p.x.begin(), p.x.end()), y(p.y.begin(), p.y.end()),
        z(p.z.begin(), p.z.end()), m(p.mass.begin(), p.mass.end()), h(n, Real(kEps2 / 2));
    tree_.build(x.data(), y.data(), z.data(), m.data(), h.data(), n, leaf);
    const auto& b = tree_.bodies();
    for (int s = 0; s < kSamples; ++s) sample_.push_back(std::uint32_t(double(s) / kSamples * n));
    reference_.resize(kSamples);
    for (int s = 0; s < kSamples; ++s) {
      const std::uint32_t i = sample_[s];
      for (std::size_t j = 0; j < n; ++j)
        if (j != i)
          reference_[s].add_body(double(b.x[j]) - b.x[i], double(b.y[j]) - b.y[i],
                                 double(b.z[j]) - b.z[i], b.mass[j]);
    }
  }

  // The GPU's groups: cuda/walk_groups.cu's packing, replayed.
  std::vector<Range> gpu_groups(std::uint32_t group, std::uint32_t super) const {
    const auto& nodes = tree_.nodes();
    std::vector<Range> out;
    for (std::uint32_t i = 0; i < nodes.size();) {
      if (nodes[i].count > super && !nodes[i].leaf) {
        ++i;
        continue;
      }
      std::uint32_t b = nodes[i].begin, e = b;
      for (std::uint32_t j = i; j < nodes[i].next;) {
        const auto& l = nodes[j];
        if (!l.leaf) {
          ++j;
          continue;
        }
        if (e > b && l.begin + l.count - b > group) out.push_back({b, e}), b = l.begin;
        e = l.begin + l.count;
        while (e - b > group) out.push_back({b, b + group}), b += group;
        j = l.next;
      }
      out.push_back({b, e});
      i = nodes[i].next;
    }
    return out;
  }

  std::vector<Range> node_groups(int group) const {
    std::vector<Range> out;
    for (auto g : tree_.groups(group))
      out.push_back({tree_.nodes()[g].begin, tree_.nodes()[g].begin + tree_.nodes()[g].count});
    return out;
  }

  void report_groups(const std::string& name, const std::vector<Range>& groups,
                     int per_lane) const {
    const auto& b = tree_.bodies();
    double cells = 0, bodies = 0, lane_instructions = 0;
    std::vector<Acc> got(kSamples);
    std::size_t s = 0;
    Lists l;
    for (const Range& g : groups) {
      Real lo[3] = {b.x[g.begin], b.y[g.begin], b.z[g.begin]}, hi[3] = {lo[0], lo[1], lo[2]};
      for (auto k = g.begin; k < g.end; ++k) {
        const Real p[3] = {b.x[k], b.y[k], b.z[k]};
        for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
      }
      walk(l, g, [&](const cpu::OctreeNode<Real>& c) {
        return taken_whole(c.size * c.size, theta2_, distance2_to_box(lo, hi, c.cx, c.cy, c.cz));
      });
      cells += double(l.cells.size()), bodies += double(l.bodies.size());
      lane_instructions += 32.0 * per_lane *
                           (cell_cost_ * double(l.cells.size()) + body_cost_ * double(l.bodies.size()));
      for (; s < sample_.size() && sample_[s] < g.end; ++s) got[s] = sum(l, sample_[s]);
    }
    const double n = double(b.x.size()), count = double(groups.size());
    std::printf(
        "{\"walk\": \"%s\", \"groups\": %.0f, \"lanes_filled\": %.3f, \"cells_per_group\": %.0f, "
        "\"bodies_per_group\": %.0f, \"lane_instructions_per_target\": %.0f, %s}\n",
        name.c_str(), count, n / (count * 32 * per_lane), cells / count, bodies / count,
        lane_instructions / n, errors(got).c_str());
  }

  // The textbook walk: each sampled target its own group, its distance to each cell's centre.
  void report_textbook() const {
    double cells = 0, bodies = 0;
    std::vector<Acc> got(kSamples);
    Lists l;
    const auto& b = tree_.bodies();
    for (int s = 0; s < kSamples; ++s) {
      const std::uint32_t t = sample_[s];
      walk(l, Range{t, t + 1}, [&](const cpu::OctreeNode<Real>& c) {
        const double dx = c.cx - b.x[t], dy = c.cy - b.y[t], dz = c.cz - b.z[t];
        return double(c.size) * c.size < double(theta2_) * (dx * dx + dy * dy + dz * dz);
      });
      cells += double(l.cells.size()), bodies += double(l.bodies.size());
      got[s] = sum(l, t);
    }
    std::printf("{\"walk\": \"one target at a time\", \"cells_per_target\": %.0f, "
                "\"bodies_per_target\": %.0f, \"lane_instructions_per_target\": %.0f, %s}\n",
                cells / kSamples, bodies / kSamples,
                (cell_cost_ * cells + body_cost_ * bodies) / kSamples, errors(got).c_str());
  }

 private:
  // The lists of one group: cells taken whole, bodies of the leaves that are not; a cell
  // holding one of the group's bodies is always opened.
  template <class Take>
  void walk(Lists& l, Range g, Take take) const {
    const auto& nodes = tree_.nodes();
    l.cells.clear(), l.bodies.clear();
    for (std::uint32_t i = 0; i < nodes.size();) {
      const auto& c = nodes[i];
      const bool holds = !(c.begin >= g.end || g.begin >= c.begin + c.count);
      if (!holds && take(c)) {
        l.cells.push_back(i), i = c.next;
      } else if (c.leaf) {
        for (auto k = c.begin; k < c.begin + c.count; ++k) l.bodies.push_back(k);
        i = c.next;
      } else {
        ++i;
      }
    }
  }

  Acc sum(const Lists& l, std::uint32_t t) const {
    const auto& b = tree_.bodies();
    const auto& nodes = tree_.nodes();
    Acc a;
    for (auto i : l.cells) {
      const auto& c = nodes[i];
      const auto& q = tree_.quadrupoles()[i];
      const double dx = double(c.cx) - b.x[t], dy = double(c.cy) - b.y[t],
                   dz = double(c.cz) - b.z[t];
      const double inv_r = 1 / std::sqrt(dx * dx + dy * dy + dz * dz + kEps2);
      double phi = 0;
      accumulate_cell<double, double>(dx, dy, dz, inv_r, c.mass,
                                      Quadrupole<double>{q.xx, q.xy, q.xz, q.yy, q.yz, q.zz}, a.x,
                                      a.y, a.z, phi);
    }
    for (auto k : l.bodies)
      if (k != t)
        a.add_body(double(b.x[k]) - b.x[t], double(b.y[k]) - b.y[t], double(b.z[k]) - b.z[t],
                   b.mass[k]);
    return a;
  }

  std::string errors(const std::vector<Acc>& got) const {
    std::vector<double> e(kSamples);
    for (int s = 0; s < kSamples; ++s) {
      const Acc& r = reference_[s];
      const double dx = got[s].x - r.x, dy = got[s].y - r.y, dz = got[s].z - r.z;
      e[s] = std::sqrt((dx * dx + dy * dy + dz * dz) / (r.x * r.x + r.y * r.y + r.z * r.z));
    }
    std::sort(e.begin(), e.end());
    char text[96];
    std::snprintf(text, sizeof text, "\"error_median\": %.3g, \"error_p99\": %.3g",
                  e[kSamples / 2], e[kSamples * 99 / 100]);
    return text;
  }

  cpu::Octree<Real> tree_;
  std::vector<std::uint32_t> sample_;
  std::vector<Acc> reference_;
  Real theta2_;
  double cell_cost_, body_cost_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const int leaf = argc > 2 ? std::atoi(argv[2]) : 16;
  const double theta = argc > 3 ? std::atof(argv[3]) : 0.5;
  const double cell_cost = argc > 4 ? std::atof(argv[4]) : 35;
  const double body_cost = argc > 5 ? std::atof(argv[5]) : 16;
  const Counter counter(n, leaf, theta, cell_cost, body_cost);
  for (std::uint32_t super : {512u, 1024u, 2048u})
    counter.report_groups("gpu groups of 64, super-nodes of " + std::to_string(super),
                          counter.gpu_groups(64, super), 2);
  for (std::uint32_t super : {512u, 1024u})
    counter.report_groups("gpu groups of 32, super-nodes of " + std::to_string(super),
                          counter.gpu_groups(32, super), 1);
  counter.report_groups("tree nodes of <= 64", counter.node_groups(64), 2);
  counter.report_groups("tree nodes of <= 32", counter.node_groups(32), 1);
  counter.report_textbook();
}
