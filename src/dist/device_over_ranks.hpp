// SPDX-License-Identifier: MIT
// What the engines over ranks share (engine_over_ranks.cpp, tree_over_ranks.cpp): the inner
// engine's device with the step control's maximum norm taken over the ranks, and the seconds
// each rank's force evaluations spent computing, communicating and waiting.
#pragma once

#include "orrery/device/forwarding_device.hpp"
#include "orrery/dist/bodies_over_ranks.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

// The inner engine's device, with the step control's maximum norm taken over the ranks: every
// rank then accepts or rejects a step, and chooses the next, as one process does.
template <class Real>
class DeviceOverRanks final : public ForwardingDevice<Real> {
 public:
  using ForwardingDevice<Real>::ForwardingDevice;
  // all_finite stays this rank's: a Simulation over ranks agrees on a non-finite state through
  // its BodyShare.
  double max_scaled_error(const DeviceBuffer<Real>& e, const DeviceBuffer<Real>& y,
                          const DeviceBuffer<Real>& z, double atol, double rtol) override {
    return max_over_ranks(ForwardingDevice<Real>::max_scaled_error(e, y, z, atol, rtol));
  }
};

// This rank's running totals (take_rank_force_times() reads and clears them), and whether a
// barrier before each evaluation measures the wait for the slowest rank.
RankForceTimes& rank_force_times();
bool measuring_rank_wait();

}  // namespace orrery::dist
