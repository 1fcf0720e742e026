// SPDX-License-Identifier: MIT
// Collecting a map's results while devices are still writing them (the CUDA backend; plain host
// code, so it is tested without a GPU).
//
// Each pixel's result is one 32-bit word in shared memory, written once by whoever computes it:
// the count, or its complement (negative) when the integration turned non-finite, and kNotYet
// before. One word, so a reader that sees it sees both. The collector sweeps the words while the
// devices work, copying finished pixels into the output and keeping a list of the rest, so when
// the last device is done only the pixels of its last milliseconds are left to copy, and those
// are copied by several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "orrery/core/hd.hpp"
#include "orrery/ensemble/divergence_counts.hpp"

namespace orrery {

inline constexpr std::int32_t kNotYet = std::numeric_limits<std::int32_t>::min();

// A non-finite pixel stopped before `steps`, so its count is below 2^31 − 1 and its complement
// is above kNotYet.
ORRERY_HD constexpr std::int32_t result_word(std::int32_t count, bool nonfinite) {
  return nonfinite ? ~count : count;
}

class ResultCollector {
 public:
  // Runs job(i) for every i < n, at once where it can, and returns when all have returned.
  using Runner = std::function<void(std::size_t n, const std::function<void(std::size_t)>& job)>;

  // `words` has out.counts.size() entries, fewer than 2^32 (out.nonfinite as many); out's sums
  // start at 0.
  ResultCollector(const std::int32_t* words, DivergenceCounts& out);
  // Copies the pixels finished among the next `most` of those not yet seen finished (all of them
  // if `most` is 0), in turn from sweep to sweep; returns how many are not yet. The first sweep
  // looks at every pixel. Bounded sweeps keep the caller responsive: when most pixels end
  // together (the last milliseconds of a GPU map), a full sweep takes the better part of a
  // millisecond.
  std::size_t sweep(std::size_t most = 0);
  std::int64_t pixels_done() const { return done_; }
  // Once every writer is done: the last sweep, in up to `parts` slices that `run` runs at once
  // (one slice without it), each over consecutive pixels; throws RunError if a pixel was never
  // computed. Most pixels of a GPU map end in its last milliseconds: one thread copying them
  // took half a millisecond on the canonical map.
  void finish(std::size_t parts = 1, const Runner& run = {});

 private:
  // What a sweep (or a slice of the last one) adds to the output's sums; one per cache line,
  // since slices run on several threads.
  struct alignas(64) Tally {
    std::int64_t steps = 0, nonfinite = 0, done = 0;
    Tally& operator+=(const Tally& o) {
      steps += o.steps, nonfinite += o.nonfinite, done += o.done;
      return *this;
    }
  };
  template <class Keep>
  Tally copy_finished(std::span<const std::uint32_t> pixels, Keep&& keep);
  void add(const Tally& t);

  const std::int32_t* words_;
  DivergenceCounts& out_;
  bool swept_ = false;
  // Not yet seen finished, in order: kept_ (looked at in this round of sweeps), then
  // pending_[cursor_, end) (not looked at yet in this round).
  std::vector<std::uint32_t> pending_, kept_;
  std::size_t cursor_ = 0;
  std::int64_t done_ = 0;
};

}  // namespace orrery
