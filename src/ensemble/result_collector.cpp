// SPDX-License-Identifier: MIT
#include "result_collector.hpp"

#include <atomic>

#include "orrery/core/error.hpp"

namespace orrery {

ResultCollector::ResultCollector(const std::int32_t* words, DivergenceCounts& out)
    : words_(words), out_(out) {}

// Copies pixel i if it is finished.
bool ResultCollector::take(std::size_t i) {
  // Written by a device while we read: a relaxed atomic view (one word holds the whole result).
  const std::int32_t w =
      std::atomic_ref<const std::int32_t>(words_[i]).load(std::memory_order_relaxed);
  if (w == kNotYet) return false;
  const bool nonfinite = w < 0;
  const std::int32_t count = nonfinite ? ~w : w;
  out_.counts[i] = count;
  out_.nonfinite[i] = nonfinite;
  out_.pixel_steps += count;
  out_.nonfinite_pixels += nonfinite;
  ++done_;
  return true;
}

std::size_t ResultCollector::sweep() {
  if (!swept_) {
    swept_ = true;
    const std::size_t total = out_.counts.size();
    for (std::size_t i = 0; i < total; ++i)
      if (!take(i)) pending_.push_back(static_cast<std::uint32_t>(i));
    return pending_.size();
  }
  std::size_t kept = 0;
  for (const std::uint32_t i : pending_)
    if (!take(i)) pending_[kept++] = i;
  pending_.resize(kept);
  return kept;
}

void ResultCollector::finish() {
  if (sweep() != 0)
    throw RunError("a pixel was never computed (pixel " + std::to_string(pending_.front()) +
                   " of " + std::to_string(out_.counts.size()) + "); this is a bug");
}

}  // namespace orrery
