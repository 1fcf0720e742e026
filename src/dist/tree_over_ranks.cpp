// SPDX-License-Identifier: MIT
// dist/bodies_over_ranks.hpp, tree_over_ranks: the Barnes–Hut tree over the ranks (J. Barnes &
// P. Hut, Nature 324, 446, 1986; distributed as M. S. Warren & J. K. Salmon, Supercomputing '93,
// and Bonsai, J. Bédorf et al., SC'14). Each rank keeps stepping its slice of the bodies (the
// integrator's state stays where the direct engine over ranks keeps it); for each evaluation the
// slice's bodies travel to the ranks whose domain of space holds them (tree_domains.hpp, cut by
// the last evaluation's work), each rank builds the octree of its domain (nbody/tree/cpu),
// sends every other rank the local essential tree of it (tree_essential.hpp) and walks its own
// tree and the received ones, in rank order, for its domain's bodies; the accelerations travel
// back to the slices. Every exchange is an MPI_Alltoallv whose pieces come in rank order, and the
// cuts are found from integer sums, so a rerun with the same ranks gives the same bits.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "dist/device_over_ranks.hpp"
#include "dist/tree_domains.hpp"
#include "dist/tree_essential.hpp"
#include "nbody/tree/cpu/tree_engine.hpp"
#include "orrery/core/float128.hpp"
#include "orrery/core/morton.hpp"
#include "orrery/core/seconds_since.hpp"
#include "orrery/nbody/potential_sum.hpp"

namespace orrery::dist {

namespace {

using TreeClock = std::chrono::steady_clock;

// A body on its way to its domain, and its results on their way back.
template <class Real>
struct Traveller {
  Real x, y, z, mass, softening;
};
template <class Real>
struct TreeResult {
  Real a[3], phi;
  std::uint64_t work;
};

template <class Real>
class TreeOverRanks final : public ForceEngine<Real> {
 public:
  TreeOverRanks(const EngineOptions& options, std::size_t total)
      : inner_(options), device_(inner_.device()), theta_(static_cast<Real>(options.theta)),
        slice_(my_body_slice(total)), ranks_(static_cast<std::size_t>(layout().size)) {
    inner_.walk_also([this](const cpu::Octree<Real>& own) { return exchange_trees(own); });
  }

  std::string name() const override { return inner_.name(); }
  std::string backend() const override { return inner_.backend(); }
  ArrayDevice<Real>& device() override { return device_; }
  double gravitational_constant() const override { return inner_.gravitational_constant(); }
  std::string potential_energy_method() const override {
    return inner_.potential_energy_method();
  }
  EngineTimings last_timings() const override { return inner_.last_timings(); }

  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override {
    mass_.assign(mass.begin(), mass.end());
    softening_.assign(softening.begin(), softening.end());
    work_.assign(mass_.size(), 1);  // equal counts until a walk has measured them
  }

  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override {
    evaluate(x, a.data(), nullptr);
  }
  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override {
    evaluate(x, a.data(), phi.data());
  }
  // Every rank's share of W = ½ Σ m φ, summed in rank order on every rank: the same bits
  // everywhere, and at every rerun with as many ranks.
  double potential_energy(const DeviceBuffer<Real>& x) override {
    const std::size_t n = mass_.size();
    scratch_.resize(4 * n);
    evaluate(x, scratch_.data(), scratch_.data() + 3 * n);
    const double mine = potential_energy_from_potentials<Real>(
        mass_, std::span<const Real>(scratch_).subspan(3 * n));
    std::vector<double> every(ranks_);
    all_gather<double>(std::span<const double>(&mine, 1), every,
                       std::vector<std::int64_t>(ranks_, 1));
    double w = 0;
    for (const double part : every) w += part;
    return w;
  }

 private:
  void evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi);
  std::span<const cpu::Octree<Real>> exchange_trees(const cpu::Octree<Real>& own);

  // Seconds of communication in this evaluation, measured around each exchange.
  template <class F>
  void communicating(F&& f) {
    const auto t0 = TreeClock::now();
    f();
    communicated_ += seconds_since(t0);
  }

  cpu::TreeEngine<Real> inner_;
  DeviceOverRanks<Real> device_;
  Real theta_;
  BodySlice slice_;
  std::size_t ranks_;
  std::vector<Real> mass_, softening_, scratch_;
  std::vector<std::uint64_t> work_;        // by slice body: its force's cost in the last walk
  std::vector<Real> boxes_;                // by rank: the box of its domain's bodies (lo, hi)
  std::vector<cpu::Octree<Real>> received_;
  double communicated_ = 0;
};

template <class Real>
void TreeOverRanks<Real>::evaluate(const DeviceBuffer<Real>& x, Real* a, Real* phi) {
  if (measuring_rank_wait()) {
    const auto w0 = TreeClock::now();
    least_over_ranks(0);
    rank_force_times().wait += seconds_since(w0);
  }
  const auto start = TreeClock::now();
  communicated_ = 0;
  const std::size_t n = mass_.size();
  const Real* p = x.data();

  // The global root box (minima and maxima round nothing), and the slice's keys in it.
  const double inf = std::numeric_limits<double>::infinity();
  double lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
  for (int c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<double>(p[c * n + i]);
      lo[c] = std::min(lo[c], v), hi[c] = std::max(hi[c], v);
    }
  }
  communicating([&] {  // every rank's six bounds in one message
    const double mine[6] = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
    std::vector<double> every(6 * ranks_);
    all_gather<double>(mine, every, std::vector<std::int64_t>(ranks_, 6));
    for (std::size_t r = 0; r < ranks_; ++r)
      for (int c = 0; c < 3; ++c)
        lo[c] = std::min(lo[c], every[6 * r + c]), hi[c] = std::max(hi[c], every[6 * r + 3 + c]);
  });
  const double scale =
      morton_scale(std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}));
  std::vector<std::uint64_t> keys(n), sorted_keys(n), sorted_work(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = morton_key_in_cube<double>(p[i], p[n + i], p[2 * n + i], lo[0], lo[1], lo[2], scale);
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t i, std::uint32_t j) { return keys[i] < keys[j]; });
  for (std::size_t k = 0; k < n; ++k)
    sorted_keys[k] = keys[order[k]], sorted_work[k] = work_[order[k]];
  std::vector<std::uint64_t> cuts;
  communicating([&] { cuts = domain_cuts(sorted_keys, sorted_work, static_cast<int>(ranks_)); });

  // The slice's bodies to their domains, in key order (so grouped by domain, in rank order).
  std::vector<std::int64_t> send(ranks_, 0);
  std::vector<Traveller<Real>> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    ++send[static_cast<std::size_t>(domain_of(cuts, sorted_keys[k]))];
    out[k] = {p[i], p[n + i], p[2 * n + i], mass_[i], softening_.empty() ? Real(0) : softening_[i]};
  }
  std::vector<std::int64_t> receive;
  std::vector<Traveller<Real>> in;
  communicating([&] {
    receive = exchange_counts(send);
    in.resize(static_cast<std::size_t>(std::accumulate(receive.begin(), receive.end(),
                                                       std::int64_t{0})));
    all_to_all<Traveller<Real>>(out, send, in, receive);
  });

  // The domain's tree, walked with the other ranks' essential trees (exchange_trees).
  const std::size_t m = in.size();
  ArrayDevice<Real>& d = inner_.device();
  DeviceBuffer<Real> dx = d.allocate(3 * m), da = d.allocate(3 * m), dphi = d.allocate(m);
  std::vector<Real> dmass(m), dsoft(softening_.empty() ? 0 : m);
  Real box[6] = {0, 0, 0, -1, -1, -1};  // empty: lo > hi
  for (std::size_t j = 0; j < m; ++j) {
    const Traveller<Real>& t = in[j];
    dx.data()[j] = t.x, dx.data()[m + j] = t.y, dx.data()[2 * m + j] = t.z;
    dmass[j] = t.mass;
    if (!dsoft.empty()) dsoft[j] = t.softening;
    const Real q[3] = {t.x, t.y, t.z};
    for (int c = 0; c < 3; ++c) {
      box[c] = j ? std::min(box[c], q[c]) : q[c];
      box[3 + c] = j ? std::max(box[3 + c], q[c]) : q[c];
    }
  }
  boxes_.resize(6 * ranks_);
  communicating([&] {
    all_gather<Real>(box, boxes_, std::vector<std::int64_t>(ranks_, 6));
  });
  inner_.set_bodies(dmass, dsoft);
  if (phi)
    inner_.accelerations_and_potentials(dx, da, dphi);
  else
    inner_.accelerations(dx, da);

  // The results back to the slices, in the order they came.
  std::vector<TreeResult<Real>> back(m), results(n);
  const std::vector<std::uint64_t>& work = inner_.work();
  for (std::size_t j = 0; j < m; ++j)
    back[j] = {{da.data()[j], da.data()[m + j], da.data()[2 * m + j]},
               phi ? dphi.data()[j] : Real(0), work[j]};
  communicating([&] { all_to_all<TreeResult<Real>>(back, receive, results, send); });
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    for (std::size_t c = 0; c < 3; ++c) a[c * n + i] = results[k].a[c];
    if (phi) phi[i] = results[k].phi;
    work_[i] = std::max<std::uint64_t>(1, results[k].work);
  }
  RankForceTimes& times = rank_force_times();
  times.communicate += communicated_;
  times.compute += seconds_since(start) - communicated_;
  ++times.evaluations;
}

template <class Real>
std::span<const cpu::Octree<Real>> TreeOverRanks<Real>::exchange_trees(
    const cpu::Octree<Real>& own) {
  const auto me = static_cast<std::size_t>(layout().rank);
  const auto empty = [&](std::size_t r) { return boxes_[6 * r] > boxes_[6 * r + 3]; };
  std::vector<std::byte> out;
  std::vector<std::int64_t> send(ranks_, 0);
  for (std::size_t r = 0; r < ranks_; ++r) {
    if (r == me || empty(r) || own.nodes().empty()) continue;
    const Real lo[3] = {boxes_[6 * r], boxes_[6 * r + 1], boxes_[6 * r + 2]};
    const Real hi[3] = {boxes_[6 * r + 3], boxes_[6 * r + 4], boxes_[6 * r + 5]};
    const std::size_t before = out.size();
    append_essential_tree(own, lo, hi, theta_, out);
    send[r] = static_cast<std::int64_t>(out.size() - before);
  }
  std::vector<std::int64_t> receive;
  std::vector<std::byte> in;
  communicating([&] {
    receive = exchange_counts(send);
    in.resize(static_cast<std::size_t>(std::accumulate(receive.begin(), receive.end(),
                                                       std::int64_t{0})));
    all_to_all<std::byte>(out, send, in, receive);
  });
  received_.clear();
  std::size_t at = 0;
  for (std::size_t r = 0; r < ranks_; ++r) {  // in rank order: the same lists at every rerun
    const auto bytes = static_cast<std::size_t>(receive[r]);
    if (bytes) received_.push_back(read_essential_tree<Real>(std::span(in).subspan(at, bytes)));
    at += bytes;
  }
  return received_;
}

}  // namespace

template <class Real>
std::unique_ptr<ForceEngine<Real>> tree_over_ranks(const EngineOptions& options,
                                                   std::size_t total) {
  return std::make_unique<TreeOverRanks<Real>>(options, total);
}

template std::unique_ptr<ForceEngine<float>> tree_over_ranks(const EngineOptions&, std::size_t);
template std::unique_ptr<ForceEngine<double>> tree_over_ranks(const EngineOptions&, std::size_t);
template std::unique_ptr<ForceEngine<float128>> tree_over_ranks(const EngineOptions&,
                                                                std::size_t);

}  // namespace orrery::dist
