// SPDX-License-Identifier: MIT
#include "speed_share.hpp"

#include <algorithm>

namespace orrery::cuda {

SpeedShare::SpeedShare(std::size_t devices, WorkPool& pool, bool move, double tolerance)
    : speeds_(devices, 0.0), pool_(pool), move_(move), tolerance_(tolerance) {}

void SpeedShare::report(std::size_t slot, double progress) {
  std::lock_guard<std::mutex> lock(mutex_);
  speeds_[slot] = progress;
  if (++reported_ < speeds_.size()) return;
  const auto [slowest, fastest] = std::minmax_element(speeds_.begin(), speeds_.end());
  if (move_ && *slowest > 0 && *fastest > tolerance_ * *slowest)
    moved_ = pool_.rebalance(speeds_);
  decided_ = true;
}

std::vector<double> SpeedShare::speeds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return speeds_;
}

}  // namespace orrery::cuda
