// SPDX-License-Identifier: MIT
// Leapfrog kick–drift–kick with hierarchical block time steps (block_steps/leapfrog_block.hpp)
// for a large system on its device. One step of h (the largest block step) runs the hierarchy
// from one synchronisation of all bodies to the next, in ticks of h/2^max_level:
//
//   at tick 0 every body is active; each body's level k_i comes from its kept a_i
//   (block_levels.hpp). Then, until tick T = 2^max_level:
//     opening kick:  v_i ← v_i + ½ (h/2^k_i) a_i     for the active bodies
//     drift:         x ← x + (h/2^K) v               for every body, K the deepest level in use
//     the tick advances by T/2^K; the active bodies are those whose step ends there
//     (tick a multiple of T/2^k_i): a_i ← a(x)_i for them alone (accelerations_of)
//     closing kick:  v_i ← v_i + ½ (h/2^k_i) a_i     for the active bodies
//     an active body takes a new level from its new a_i: any deeper one, or a shallower one
//     only as far as the tick is a boundary of that level's step (its step stays aligned).
//
// Each kick and drift is ArrayDevice::combine's one-term update (combine_listed for the kicks),
// so with every body on one level k a step gives the bits of 2^k leapfrog steps of h/2^k
// (SplittingArrayStepper<LeapfrogKDK>). The kept accelerations are the state, as for leapfrog:
// at the end of a step every body is synchronised and its a_i current, and the levels of the
// next step follow from them, so save() writes "accelerations" (while current) and
// "accelerations_current", and a resumed run continues bit for bit.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "orrery/core/error.hpp"
#include "orrery/integrate/array_stepper.hpp"
#include "orrery/integrate/block_steps/block_levels.hpp"
#include "orrery/integrate/kept_accelerations.hpp"

namespace orrery {

template <class Real>
class BlockLeapfrogArrayStepper final : public ArrayStepper<Real> {
 public:
  explicit BlockLeapfrogArrayStepper(const BlockStepOptions& options) : options_(options) {
    check_block_step_options(options);
  }

  StepReport<Real> step(SecondOrderSystem<Real>& system, DeviceBuffer<Real>& x,
                        DeviceBuffer<Real>& v, Real h) override {
    ArrayDevice<Real>& device = system.device();
    const std::size_t n = x.size() / 3;
    if (n == 0) return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
    kept_.prepare(device, x.size());
    if (!kept_.current) {
      system.accelerations(x, kept_.buffer);
      targets_evaluated_ += n;
      kept_.current = true;
    }
    const int top = options_.max_level;
    const std::int64_t end = std::int64_t{1} << top;
    steps_.assign(top + 1, h);
    for (int k = 1; k <= top; ++k) steps_[k] = steps_[k - 1] / Real(2);
    levels_.assign(n, 0);
    active_.resize(n);
    for (std::size_t i = 0; i < n; ++i) active_[i] = static_cast<std::uint32_t>(i);
    choose_levels(device, h, 0);
    for (std::int64_t tick = 0; tick < end;) {
      kick(device, v);
      const int deepest = *std::max_element(levels_.begin(), levels_.end());
      drift(device, x, v, steps_[deepest]);
      tick += end >> deepest;
      const int shallowest = shallowest_level_at(tick, top);
      active_.clear();
      for (std::size_t i = 0; i < n; ++i)
        if (levels_[i] >= shallowest) active_.push_back(static_cast<std::uint32_t>(i));
      if (active_.size() == n)
        system.accelerations(x, kept_.buffer);
      else
        system.accelerations_of(x, kept_.buffer, active_);
      targets_evaluated_ += active_.size();
      kick(device, v);
      if (tick < end) choose_levels(device, h, shallowest);
    }
    return {.taken = h, .accepted = true, .error = std::nullopt, .next = h};
  }

  void save(SecondOrderSystem<Real>& system, StepperState<Real>& state) const override {
    kept_.save(system, state);
  }

  void load(SecondOrderSystem<Real>& system, const StepperState<Real>& state) override {
    kept_.load(system, state, "block-step leapfrog");
  }

  void clear() override { kept_.current = false; }

  // Targets whose accelerations were computed, over every step so far: the force pass's work
  // (times N for a direct engine).
  std::uint64_t targets_evaluated() const { return targets_evaluated_; }
  // Each body's level at the end of the last step.
  const std::vector<int>& levels() const { return levels_; }

 private:
  // The shallowest level whose step has a boundary at `tick` (0 at the end, 2^top).
  static int shallowest_level_at(std::int64_t tick, int top) {
    return std::max(0, top - std::countr_zero(static_cast<std::uint64_t>(tick)));
  }

  // New levels for the active bodies, none shallower than `shallowest` (the shallowest level
  // whose step has a boundary at this tick).
  void choose_levels(ArrayDevice<Real>& device, Real h, int shallowest) {
    host_accel_.resize(kept_.buffer.size());
    device.copy_to_host(kept_.buffer, host_accel_);
    const std::size_t n = levels_.size();
    for (const std::uint32_t i : active_) {
      const double ax = static_cast<double>(host_accel_[i]);
      const double ay = static_cast<double>(host_accel_[n + i]);
      const double az = static_cast<double>(host_accel_[2 * n + i]);
      const double norm = std::sqrt(ax * ax + ay * ay + az * az);
      levels_[i] = std::max(shallowest, block_level(static_cast<double>(h), norm, options_));
    }
  }

  // Half kicks of the active bodies, one combine_listed per level.
  void kick(ArrayDevice<Real>& device, DeviceBuffer<Real>& v) {
    by_level_.resize(steps_.size());
    for (auto& list : by_level_) list.clear();
    for (const std::uint32_t i : active_) by_level_[levels_[i]].push_back(i);
    for (std::size_t k = 0; k < by_level_.size(); ++k)
      if (!by_level_[k].empty()) device.combine_listed(v, steps_[k], 0.5, kept_.buffer, by_level_[k]);
  }

  static void drift(ArrayDevice<Real>& device, DeviceBuffer<Real>& x, const DeviceBuffer<Real>& v,
                    Real dt) {
    const Real one[1] = {Real(1)};
    const DeviceBuffer<Real>* term[1] = {&v};
    device.combine(x, x, dt, one, term);
  }

  BlockStepOptions options_;
  KeptAccelerations<Real> kept_;  // a_i, each current at its body's last step boundary
  std::vector<Real> steps_;        // h/2^k by level
  std::vector<int> levels_;        // k_i
  std::vector<std::uint32_t> active_;
  std::vector<std::vector<std::uint32_t>> by_level_;
  std::vector<Real> host_accel_;
  std::uint64_t targets_evaluated_ = 0;
};

}  // namespace orrery
