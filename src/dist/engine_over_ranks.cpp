// SPDX-License-Identifier: MIT
// dist/bodies_over_ranks.hpp: the engine of one rank's slice. Positions are gathered component
// by component (x of every slice, then y, then z), so the gathered array has the layout of one
// process's [x_0..x_{N−1}, y..., z...]; the inner engine computes the slice's targets from it
// (accelerations_of: work in proportion to the targets, the bits of a whole evaluation).
#include <chrono>
#include <cstring>
#include <vector>

#include "orrery/core/float128.hpp"
#include "orrery/core/seconds_since.hpp"
#include "dist/device_over_ranks.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

RankForceTimes g_rank_force_times;
bool g_measure_rank_wait = false;

template <class Real>
class EngineOverRanks final : public ForceEngine<Real> {
 public:
  EngineOverRanks(std::unique_ptr<ForceEngine<Real>> inner, std::size_t total)
      : inner_(std::move(inner)), device_(inner_->device()), total_(total) {
    const RankLayout& l = layout();
    for (int r = 0; r < l.size; ++r)
      counts_.push_back(static_cast<std::int64_t>(body_slice(total_, r, l.size).size()));
    slice_ = my_body_slice(total_);
    for (std::size_t i = slice_.begin; i < slice_.end; ++i)
      targets_.push_back(static_cast<std::uint32_t>(i));
  }

  std::string name() const override { return inner_->name(); }
  std::string backend() const override { return inner_->backend(); }
  ArrayDevice<Real>& device() override { return device_; }
  double gravitational_constant() const override { return inner_->gravitational_constant(); }
  std::string potential_energy_method() const override {
    return inner_->potential_energy_method();
  }
  EngineTimings last_timings() const override { return inner_->last_timings(); }

  void set_bodies(std::span<const Real> mass, std::span<const Real> softening) override {
    std::vector<Real> all_mass(total_), all_softening(softening.empty() ? 0 : total_);
    all_gather<Real>(mass, all_mass, counts_);
    if (!softening.empty()) all_gather<Real>(softening, all_softening, counts_);
    inner_->set_bodies(all_mass, all_softening);
    ArrayDevice<Real>& d = inner_->device();
    x_ = d.allocate(3 * total_);
    a_ = d.allocate(3 * total_);
  }

  void accelerations(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a) override {
    gather_positions(x);
    const auto t0 = std::chrono::steady_clock::now();
    inner_->accelerations_of(x_, a_, targets_);
    g_rank_force_times.compute += seconds_since(t0);
    copy_slice_out(a_, a, 3);
    ++g_rank_force_times.evaluations;
  }

  void accelerations_of(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                        std::span<const std::uint32_t> targets) override {
    gather_positions(x);
    std::vector<std::uint32_t> global(targets.begin(), targets.end());
    for (std::uint32_t& t : global) t += static_cast<std::uint32_t>(slice_.begin);
    inner_->accelerations_of(x_, a_, global);
    // Only the listed values change: through the host, as the contract's default does.
    ArrayDevice<Real>& d = inner_->device();
    std::vector<Real> all(3 * total_), mine(a.size());
    d.copy_to_host(a_, all);
    d.copy_to_host(a, mine);
    const std::size_t n = slice_.size();
    for (std::size_t c = 0; c < 3; ++c)
      for (const std::uint32_t i : targets) mine[c * n + i] = all[c * total_ + slice_.begin + i];
    d.copy_to_device(mine, a);
  }

  void accelerations_and_potentials(const DeviceBuffer<Real>& x, DeviceBuffer<Real>& a,
                                    DeviceBuffer<Real>& phi) override {
    gather_positions(x);
    ArrayDevice<Real>& d = inner_->device();
    DeviceBuffer<Real> all_phi = d.allocate(total_);
    inner_->accelerations_and_potentials(x_, a_, all_phi);
    copy_slice_out(a_, a, 3);
    copy_slice_out(all_phi, phi, 1);
  }

  // Every rank computes W of the whole gathered system as one process does: the same bits on
  // every rank, without a reduction whose order MPI chooses.
  double potential_energy(const DeviceBuffer<Real>& x) override {
    gather_positions(x);
    return inner_->potential_energy(x_);
  }

 private:
  // x_ ← every rank's slice of x, component by component, staged through the host where the
  // device's memory is not the host's.
  void gather_positions(const DeviceBuffer<Real>& x) {
    if (g_measure_rank_wait) {
      const auto w0 = std::chrono::steady_clock::now();
      least_over_ranks(0);  // a barrier: the time the slowest rank keeps this one waiting
      g_rank_force_times.wait += seconds_since(w0);
    }
    const auto t0 = std::chrono::steady_clock::now();
    ArrayDevice<Real>& d = inner_->device();
    const std::size_t n = slice_.size();
    const bool host = d.host_accessible();
    const Real* mine = x.data();
    if (!host) {
      staged_mine_.resize(3 * n);
      d.copy_to_host(x, staged_mine_);
      mine = staged_mine_.data();
    }
    Real* all = x_.data();
    if (!host) {
      staged_all_.resize(3 * total_);
      all = staged_all_.data();
    }
    for (std::size_t c = 0; c < 3; ++c)
      all_gather<Real>(std::span<const Real>(mine + c * n, n),
                       std::span<Real>(all + c * total_, total_), counts_);
    if (!host) d.copy_to_device(staged_all_, x_);
    g_rank_force_times.communicate += seconds_since(t0);
  }

  // `blocks` blocks of this rank's values out of the whole system's.
  void copy_slice_out(const DeviceBuffer<Real>& all, DeviceBuffer<Real>& mine,
                      std::size_t blocks) {
    ArrayDevice<Real>& d = inner_->device();
    const std::size_t n = slice_.size();
    if (d.host_accessible()) {
      for (std::size_t c = 0; c < blocks; ++c)
        std::memcpy(mine.data() + c * n, all.data() + c * total_ + slice_.begin, n * sizeof(Real));
      return;
    }
    staged_all_.resize(blocks * total_);
    staged_mine_.resize(blocks * n);
    d.copy_to_host(all, std::span<Real>(staged_all_).first(blocks * total_));
    for (std::size_t c = 0; c < blocks; ++c)
      std::memcpy(staged_mine_.data() + c * n, staged_all_.data() + c * total_ + slice_.begin,
                  n * sizeof(Real));
    d.copy_to_device(std::span<const Real>(staged_mine_).first(blocks * n), mine);
  }

  std::unique_ptr<ForceEngine<Real>> inner_;
  DeviceOverRanks<Real> device_;
  std::size_t total_;
  BodySlice slice_;
  std::vector<std::int64_t> counts_;
  std::vector<std::uint32_t> targets_;
  DeviceBuffer<Real> x_, a_;  // the whole system's, on the inner engine's device
  std::vector<Real> staged_mine_, staged_all_;
};

}  // namespace

BodySlice body_slice(std::size_t n, int rank, int size) {
  const auto r = static_cast<std::size_t>(rank), s = static_cast<std::size_t>(size);
  return {n * r / s, n * (r + 1) / s};
}

BodySlice my_body_slice(std::size_t n) { return body_slice(n, layout().rank, layout().size); }

RankForceTimes& rank_force_times() { return g_rank_force_times; }
bool measuring_rank_wait() { return g_measure_rank_wait; }

RankForceTimes take_rank_force_times() { return std::exchange(g_rank_force_times, RankForceTimes{}); }
void measure_rank_wait(bool measure_wait) { g_measure_rank_wait = measure_wait; }

template <class Real>
std::unique_ptr<ForceEngine<Real>> engine_over_ranks(std::unique_ptr<ForceEngine<Real>> inner,
                                                     std::size_t total) {
  return std::make_unique<EngineOverRanks<Real>>(std::move(inner), total);
}

template std::unique_ptr<ForceEngine<float>> engine_over_ranks(std::unique_ptr<ForceEngine<float>>,
                                                               std::size_t);
template std::unique_ptr<ForceEngine<double>> engine_over_ranks(
    std::unique_ptr<ForceEngine<double>>, std::size_t);
template std::unique_ptr<ForceEngine<float128>> engine_over_ranks(
    std::unique_ptr<ForceEngine<float128>>, std::size_t);

}  // namespace orrery::dist
