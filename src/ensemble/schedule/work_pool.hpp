// SPDX-License-Identifier: MIT
// The map's one work queue: the order in which takers that pull work as they go receive a map's
// pixels — the GPUs' feeds and the CPU backend's threads alike (plain host code, so it is tested
// without a GPU).
//
// - The grid is visited with a stride near the golden section of the pixel count, so every
//   stretch of the order samples the whole map evenly and all devices see the same mixture.
// - Longest first at the end: a persistent kernel finishes when its last pixels do, and a
//   full-length trajectory started last would keep one device busy while the others idle. So
//   when half of the pixels remains, the remainder is sorted by the longest count already known
//   within two pixels (unknown neighbourhoods first): the last pixels handed out are the ones
//   expected to diverge early. The sort runs on a thread of its own while the devices go on
//   taking unsorted pixels.
// - Several devices: the first `dealt` positions of the order are dealt among them in equal
//   consecutive stretches, so each device starts with the same mixture (more evenly than every
//   q-th position: docs/internals/map-gpu.md). The rest is shared: whoever asks first takes it
//   (the CPU backend's threads all share one part and deal nothing).
//   A part whose deal and the shared rest are exhausted takes from the end of the largest deal
//   left, so a slow device's unstarted pixels go to the others; once the devices' speeds are
//   known, the deals' unstarted ends can also be moved to the faster ones at once (rebalance).
//   A taker that fills a queue ahead of its needs steals only what it needs now: a pixel stolen
//   early and queued is one its owner might have started sooner.
// - A list of pixels is handed out as given.
#pragma once

#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <span>
#include <vector>

namespace orrery {

std::uint64_t spreading_stride(std::uint64_t pixels);

// The longest count known within two pixels of `pixel` on a width × height grid (`known` holds
// result words, read without locking: negative where no count is known yet or the pixel turned
// non-finite), or `steps` when none is.
std::int64_t predicted_count(std::uint64_t pixel, const std::int32_t* known, std::int64_t width,
                             std::int64_t height, std::int64_t steps);

class WorkPool {
 public:
  // Grid: items are pixels, `known` the run's results as they arrive. List: items are positions
  // 0..total−1 in order (width/height/known unused). `parts` takers, `dealt` positions dealt.
  WorkPool(std::uint64_t total, bool grid, std::int64_t width, std::int64_t height,
           std::int64_t steps, const std::int32_t* known, std::size_t parts = 1,
           std::uint64_t dealt = 0);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Writes up to out.size() items for taker `part`: its deal, then the shared rest, then (if
  // `steal`) the unstarted end of the largest deal left. Returns how many: 0 when all are
  // handed out, or, without `steal`, when only other parts' deals remain.
  std::size_t take(std::span<std::uint64_t> out, std::size_t part = 0, bool steal = true);
  // Shares what is left of the deals in proportion to `speeds` (one per part, all above 0): part
  // p should end with total·speed_p/Σspeed items in all, so a part that is owed more than its
  // deal holds takes the unstarted end of the deals of parts that hold more than they are owed.
  // Returns how many items moved.
  std::uint64_t rebalance(std::span<const double> speeds);
  // Waits for a sort in progress (tests use it to see the sorted order deterministically).
  void settle();

 private:
  std::uint64_t spread(std::uint64_t q) const;
  void spread_run(std::uint64_t q, std::span<std::uint64_t> out) const;
  void sort_remainder(std::uint64_t from);
  std::size_t take_shared(std::span<std::uint64_t> out, std::unique_lock<std::mutex>& lock);

  // A part's deal: the positions [front, back) of the order, then items moved to it from other
  // deals (rebalance), and how many items the part has taken in all.
  struct Deal {
    std::uint64_t front = 0, back = 0;
    std::vector<std::uint64_t> moved;
    std::uint64_t taken = 0;
    std::uint64_t left() const { return back - front + moved.size(); }
  };
  std::size_t take_deal(Deal& d, std::span<std::uint64_t> out, std::uint64_t& first,
                        std::size_t& n);
  bool take_back(Deal& d, std::uint64_t& item);

  std::mutex mutex_;
  std::condition_variable sorted_cv_;
  std::uint64_t total_, dealt_, given_, stride_;
  std::vector<Deal> deals_;
  bool grid_;
  std::int64_t width_, height_, steps_;
  const std::int32_t* known_;
  bool sorting_ = false;
  std::thread sorter_;
  bool sorted_ready_ = false;
  std::vector<std::uint64_t> sorted_;  // the remainder, longest first, once sorted
  std::size_t sorted_next_ = 0;
};

}  // namespace orrery
