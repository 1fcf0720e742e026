// SPDX-License-Identifier: MIT
#include "ensemble/schedule/result_collector.hpp"

#include <algorithm>
#include <atomic>

#include "orrery/core/error.hpp"

namespace orrery {

ResultCollector::ResultCollector(const std::int32_t* words, DivergenceCounts& out)
    : words_(words), out_(out) {}

// Copies the finished pixels among `pixels` and passes the others to keep(pixel), in order.
// The sums live in locals: a store to `nonfinite` (bytes) may alias anything, so sums kept in
// memory would be reloaded and stored around every pixel.
template <class Keep>
ResultCollector::Tally ResultCollector::copy_finished(std::span<const std::uint32_t> pixels,
                                                      Keep&& keep) {
  std::int32_t* const counts = out_.counts.data();
  std::uint8_t* const flags = out_.nonfinite.data();
  std::int64_t steps = 0, nonfinite = 0, done = 0;
  for (const std::uint32_t i : pixels) {
    // Written by a device while we read: a relaxed atomic view (one word holds the whole result).
    const std::int32_t w =
        std::atomic_ref<const std::int32_t>(words_[i]).load(std::memory_order_relaxed);
    if (w == kNotYet) {
      keep(i);
      continue;
    }
    const bool bad = w < 0;
    const std::int32_t count = bad ? ~w : w;
    counts[i] = count;
    flags[i] = bad;
    steps += count;
    nonfinite += bad;
    ++done;
  }
  return {.steps = steps, .nonfinite = nonfinite, .done = done};
}

void ResultCollector::add(const Tally& t) {
  out_.pixel_steps += t.steps;
  out_.nonfinite_pixels += t.nonfinite;
  done_ += t.done;
}

std::size_t ResultCollector::sweep(std::size_t most) {
  const auto keep = [&](std::uint32_t i) { kept_.push_back(i); };
  if (!swept_) {
    swept_ = true;
    std::vector<std::uint32_t> all(out_.counts.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
    add(copy_finished(all, keep));
    pending_.swap(kept_);
    kept_.clear();
    return pending_.size();
  }
  std::size_t looks = most == 0 ? kept_.size() + pending_.size() - cursor_ : most;
  while (looks > 0 && kept_.size() + pending_.size() > cursor_) {
    const std::size_t end = std::min(pending_.size(), cursor_ + looks);
    add(copy_finished(std::span(pending_).subspan(cursor_, end - cursor_), keep));
    looks -= end - cursor_;
    cursor_ = end;
    if (cursor_ == pending_.size()) {  // a round is over: what it kept is the list
      pending_.swap(kept_);
      kept_.clear();
      cursor_ = 0;
    }
  }
  return kept_.size() + pending_.size() - cursor_;
}

void ResultCollector::finish(std::size_t parts, const Runner& run) {
  if (!swept_) sweep();
  // The pixels not yet seen finished, in order: those kept in this round, then those not looked
  // at yet. Looked at in place: no list is built (fresh memory costs page faults, a millisecond
  // per few megabytes).
  const std::span<const std::uint32_t> kept(kept_);
  const auto rest = std::span<const std::uint32_t>(pending_).subspan(cursor_);
  const std::size_t n = kept.size() + rest.size();
  // Slices of at least 16 384 pixels: below that a thread's wake-up costs more than it saves.
  parts = run ? std::clamp<std::size_t>(std::min(parts, n / 16384), 1, 64) : 1;
  std::vector<Tally> tallies(parts);
  std::vector<std::int64_t> missing(parts, -1);  // each slice's first pixel never computed
  const auto slice = [&](std::size_t part) {
    const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
    const auto note = [&](std::uint32_t i) {
      if (missing[part] < 0) missing[part] = i;
    };
    Tally t;
    if (begin < kept.size())
      t = copy_finished(kept.subspan(begin, std::min(end, kept.size()) - begin), note);
    if (end > kept.size()) {
      const std::size_t from = std::max(begin, kept.size()) - kept.size();
      t += copy_finished(rest.subspan(from, end - kept.size() - from), note);
    }
    tallies[part] = t;
  };
  if (parts == 1)
    slice(0);
  else
    run(parts, slice);
  for (const Tally& t : tallies) add(t);
  kept_.clear();
  pending_.clear();
  cursor_ = 0;
  for (const std::int64_t i : missing)
    if (i >= 0)
      throw RunError("a pixel was never computed (pixel " + std::to_string(i) + " of " +
                     std::to_string(out_.counts.size()) + "); this is a bug");
}

}  // namespace orrery
