// SPDX-License-Identifier: MIT
// The devices' measured speeds, gathered from their host threads: the last to report moves the
// unstarted pixels from the slower devices' deals to the faster ones' (WorkPool::rebalance),
// unless the speeds are equal within a tolerance, and tells them all to raise their live caps.
// Plain host code.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "ensemble/schedule/work_pool.hpp"

namespace orrery::cuda {

class SpeedShare {
 public:
  // `move`: whether speeds move pixels at all; speeds within the ratio `tolerance` count as
  // equal.
  SpeedShare(std::size_t devices, WorkPool& pool, bool move, double tolerance);
  // Device `slot`'s progress over the measuring time; 0: none measured.
  void report(std::size_t slot, double progress);
  // Whether every device has reported (and pixels have moved, if they were to).
  bool decided() const { return decided_; }
  std::vector<double> speeds() const;
  std::uint64_t moved() const { return moved_; }

 private:
  mutable std::mutex mutex_;
  std::vector<double> speeds_;
  std::size_t reported_ = 0;
  std::atomic<bool> decided_{false};
  std::uint64_t moved_ = 0;
  WorkPool& pool_;
  bool move_;
  double tolerance_;
};

}  // namespace orrery::cuda
