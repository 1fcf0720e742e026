// SPDX-License-Identifier: MIT
// The CPU tree engine: build, walk by groups, sum the lists, put the results back in the
// caller's order. The far field of a cell is its monopole and quadrupole
// (physics/multipole.hpp); softened pairs as in physics/softened_pair.hpp.
#include "tree_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "nbody/engine_factories.hpp"
#include "orrery/core/error.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"
#include "device/cpu/on_threads.hpp"
#include "orrery/nbody/half_softening.hpp"
#include "orrery/nbody/potential_sum.hpp"
#include "orrery/physics/softened_pair.hpp"
#include "tree_walk.hpp"

namespace orrery::cpu {

namespace {

// Bodies per leaf and targets per group, measured with bench/tree_engine_bench.cpp
// (docs/internals/gravity-tree.md, "Leaves and groups").
constexpr int kLeafSize = 16;
constexpr int kGroupSize = 256;
// Below this many bodies a second thread costs more than it saves.
constexpr std::size_t kBodiesPerThread = 2048;

template <class Real>
constexpr bool kVectorised = std::is_same_v<Real, float> || std::is_same_v<Real, double>;

// float128: the same sums one source at a time.
template <class Real>
void scalar_lists(const GroupTargets<Real>& t, const SourceList<Real>& bodies,
                  const SourceList<Real>& cells, bool quadrupole, Real* ax, Real* ay, Real* az,
                  Real* phi) {
  for (std::size_t i = 0; i < t.count; ++i) {
    Real sx(0), sy(0), sz(0), sp(0);
    auto term = [&](const SourceList<Real>& l, std::size_t j, bool cell) {
      const Real dx = l.x[j] - t.x[i], dy = l.y[j] - t.y[i], dz = l.z[j] - t.z[i];
      const Real r2 = softened_distance2(dx, dy, dz, t.half_eps2[i] + l.half_eps2[j]);
      if (!(r2 > Real(0))) return;
      const Real inv_r = Real(1) / sqrt(r2);
      if (cell && quadrupole)
        accumulate_cell(dx, dy, dz, inv_r, l.mass[j],
                        Quadrupole<Real>{l.qxx[j], l.qxy[j], l.qxz[j], l.qyy[j], l.qyz[j],
                                         l.qzz[j]},
                        sx, sy, sz, sp);
      else
        accumulate_monopole(dx, dy, dz, inv_r, l.mass[j], sx, sy, sz, sp);
    };
    for (std::size_t j = 0; j < bodies.size; ++j) term(bodies, j, false);
    for (std::size_t j = 0; j < cells.size; ++j) term(cells, j, true);
    ax[i] = sx, ay[i] = sy, az[i] = sz, phi[i] = sp;
  }
}

}  // namespace

template <class Real>
TreeEngine<Real>::TreeEngine(const EngineOptions& options)
    : options_(options),
      thread_limit_(cpu_thread_limit(options.threads)),
      leaf_size_(options.leaf_size > 0 ? options.leaf_size : kLeafSize),
      group_size_(options.group_size > 0 ? options.group_size : kGroupSize),
      device_(options.threads, options.min_work_per_thread),
      kernel_(&choose_tree_kernel(options.cpu_kernel)) {}

template <class Real>
std::string TreeEngine<Real>::potential_energy_method() const {
  return tree_potential_method(options_);
}

template <class Real>
void TreeEngine<Real>::set_bodies(std::span<const Real> mass, std::span<const Real> softening) {
  half_eps2_ = half_softening_squared(softening, mass.size(), options_.softening, "tree");
  mass_.assign(mass.begin(), mass.end());
}

template <class Real>
void TreeEngine<Real>::evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi,
                                std::span<const std::uint32_t> targets) {
  const std::size_t n = mass_.size();
  if (x.size() < 3 * n)
    throw InputError(fmt::format("tree engine: positions hold {} values for {} bodies (3N expected)",
                                 x.size(), n));
  const auto t0 = std::chrono::steady_clock::now();
  const Real* px = x.data();
  tree_.build(px, px + n, px + 2 * n, mass_.data(), half_eps2_.data(), n, leaf_size_);
  timings_.upload = 0;
  timings_.build = seconds_since(t0);
  std::span<const Octree<Real>> received;
  if (received_) {
    received = received_(tree_);
    sorted_work_.resize(n);
  }
  const auto t1 = std::chrono::steady_clock::now();

  const std::vector<std::uint32_t> groups = tree_.groups(group_size_);
  const SortedBodies<Real>& b = tree_.bodies();
  sorted_results_.resize(4 * n);
  Real* sa = sorted_results_.data();
  const Real theta = static_cast<Real>(options_.theta);
  const bool quadrupole = options_.multipole == Multipole::quadrupole;
  const std::size_t pad = kVectorised<Real> ? kernel_->ops->pad : 1;
  // Listed targets only: a group without one is not walked; a group with some sums its lists
  // for those alone, gathered, and the lists (the group's, whoever is listed) give each the
  // bits of the full pass.
  const bool all = targets.size() == n;
  if (!all) {
    listed_.assign(n, 0);
    for (const std::uint32_t i : targets) listed_[i] = 1;
  }
  std::atomic<std::size_t> next{0};
  const int threads = threads_for_work(thread_limit_, all ? n : targets.size(), kBodiesPerThread);
  on_threads(threads, [&](std::size_t, std::size_t) {
    SourceList<Real> bodies, cells;
    std::vector<std::uint32_t> picked;
    std::vector<Real> gathered;
    for (std::size_t k = next++; k < groups.size(); k = next++) {
      const OctreeNode<Real>& g = tree_.nodes()[groups[k]];
      GroupTargets<Real> t{&b.x[g.begin], &b.y[g.begin], &b.z[g.begin], &b.half_eps2[g.begin],
                           g.count};
      Real* out = sa + g.begin;
      std::size_t stride = n;
      if (!all) {
        picked.clear();
        for (std::uint32_t s = g.begin; s < g.begin + g.count; ++s)
          if (listed_[b.original[s]]) picked.push_back(s);
        if (picked.empty()) continue;
        const std::size_t m = picked.size();
        gathered.resize(8 * m);
        for (std::size_t c = 0; c < m; ++c) {
          gathered[c] = b.x[picked[c]], gathered[m + c] = b.y[picked[c]];
          gathered[2 * m + c] = b.z[picked[c]], gathered[3 * m + c] = b.half_eps2[picked[c]];
        }
        t = {&gathered[0], &gathered[m], &gathered[2 * m], &gathered[3 * m], m};
        out = &gathered[4 * m];
        stride = m;
      }
      walk_group(tree_, groups[k], theta, bodies, cells);
      if (received_) {
        const GroupBox<Real> box = group_box(b, g);
        for (const Octree<Real>& r : received)
          walk_sources(r, box, ~std::uint32_t{0}, theta, bodies, cells);
        std::fill_n(sorted_work_.begin() + g.begin, g.count, bodies.size + cells.size);
      }
      pad_list(bodies, pad, false);
      pad_list(cells, pad, true);
      Real* ax = out;
      Real* ay = ax + stride;
      Real* az = ay + stride;
      Real* ph = az + stride;
      if constexpr (std::is_same_v<Real, double>)
        kernel_->ops->lists_f64(t, bodies, cells, quadrupole, ax, ay, az, ph);
      else if constexpr (std::is_same_v<Real, float>)
        kernel_->ops->lists_f32(t, bodies, cells, quadrupole, ax, ay, az, ph);
      else
        scalar_lists(t, bodies, cells, quadrupole, ax, ay, az, ph);
      for (std::size_t c = 0; c < picked.size() && !all; ++c)
        for (std::size_t part = 0; part < 4; ++part)
          sa[part * n + picked[c]] = out[part * stride + c];
    }
  });

  // Back to the caller's order, times G; a softened target's own term leaves φ.
  const Real g = static_cast<Real>(options_.g);
  if (received_) {
    work_.resize(n);
    for (std::size_t s = 0; s < n; ++s) work_[b.original[s]] = sorted_work_[s];
  }
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = b.original[s];
    if (!all && !listed_[i]) continue;
    a[i] = g * sa[s];
    a[n + i] = g * sa[n + s];
    a[2 * n + i] = g * sa[2 * n + s];
    if (phi) phi[i] = g * (sa[3 * n + s] + own_softened_potential(b.mass[s], b.half_eps2[s]));
  }
  timings_.force = seconds_since(t1);
}

template <class Real>
void TreeEngine<Real>::accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) {
  evaluate(x, a.data(), nullptr, every_body());
}

template <class Real>
void TreeEngine<Real>::accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                        std::span<const std::uint32_t> targets) {
  evaluate(x, a.data(), nullptr, targets);
}

template <class Real>
void TreeEngine<Real>::accelerations_and_potentials(const DeviceBuffer<Real>& x,
                                                    DeviceBuffer<Real>& a,
                                                    DeviceBuffer<Real>& phi) {
  evaluate(x, a.data(), phi.data(), every_body());
}

template <class Real>
std::span<const std::uint32_t> TreeEngine<Real>::every_body() {
  if (every_body_.size() != mass_.size()) {
    every_body_.resize(mass_.size());
    for (std::size_t i = 0; i < every_body_.size(); ++i)
      every_body_[i] = static_cast<std::uint32_t>(i);
  }
  return every_body_;
}

template <class Real>
double TreeEngine<Real>::potential_energy(const DeviceBuffer<Real>& x) {
  return potential_energy_from_engine<Real>(*this, x, scratch_a_, scratch_phi_, mass_);
}

template class TreeEngine<float>;
template class TreeEngine<double>;
template class TreeEngine<float128>;

template <class Real>
std::unique_ptr<ForceEngine<Real>> make_tree_engine(const EngineOptions& options) {
  return std::make_unique<TreeEngine<Real>>(options);
}
template std::unique_ptr<ForceEngine<float>> make_tree_engine<float>(const EngineOptions&);
template std::unique_ptr<ForceEngine<double>> make_tree_engine<double>(const EngineOptions&);
template std::unique_ptr<ForceEngine<float128>> make_tree_engine<float128>(const EngineOptions&);

}  // namespace orrery::cpu
