// SPDX-License-Identifier: MIT
// Collecting a map's results while devices are still writing them (the CUDA backend; plain host
// code, so it is tested without a GPU).
//
// Each pixel's result is one 32-bit word in shared memory, written once by whoever computes it:
// the count, or its complement (negative) when the integration turned non-finite, and kNotYet
// before. One word, so a reader that sees it sees both. The collector sweeps the words while the
// devices work, copying finished pixels into the output and keeping a list of the rest, so when
// the last device is done only the pixels of its last milliseconds are left to copy.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "orrery/core/hd.hpp"
#include "orrery/ensemble/divergence_map.hpp"

namespace orrery {

inline constexpr std::int32_t kNotYet = std::numeric_limits<std::int32_t>::min();

// A non-finite pixel stopped before `steps`, so its count is below 2^31 − 1 and its complement
// is above kNotYet.
ORRERY_HD constexpr std::int32_t result_word(std::int32_t count, bool nonfinite) {
  return nonfinite ? ~count : count;
}

class ResultCollector {
 public:
  // `words` has out.counts.size() entries, fewer than 2^32 (out.nonfinite as many); out's sums
  // start at 0.
  ResultCollector(const std::int32_t* words, DivergenceCounts& out);
  // Copies every pixel finished since the last sweep; returns how many are not yet.
  std::size_t sweep();
  std::int64_t pixels_done() const { return done_; }
  // Once every writer is done: the last sweep; throws RunError if a pixel was never computed.
  void finish();

 private:
  bool take(std::size_t i);

  const std::int32_t* words_;
  DivergenceCounts& out_;
  bool swept_ = false;
  std::vector<std::uint32_t> pending_;  // not yet finished at the last sweep
  std::int64_t done_ = 0;
};

}  // namespace orrery
