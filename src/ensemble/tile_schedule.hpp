// SPDX-License-Identifier: MIT
// How a map's pixels are cut into tiles for devices that pull work as they go (the CUDA backend;
// plain host code, so it is tested without a GPU).
//
// - The pixel order visits the grid with a stride near the golden section of the pixel count,
//   so every range of positions samples the whole map evenly and tiles cost about the same.
// - Tiles are handed out on demand, guided: about remaining/(2·devices), clamped between a
//   smallest and a largest size, so a slower device simply takes fewer.
// - Longest first: the time a persistent kernel needs is set by its last pixels, so once some
//   counts are known, a tile's pixels are sorted by the longest count already known within two
//   pixels of each (unknown neighbourhoods first). The map's last pixels are then the ones
//   expected to diverge early, and the devices finish together instead of waiting on a few
//   full-length trajectories.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>

namespace orrery {

std::uint64_t spreading_stride(std::uint64_t pixels);

class TileQueue {
 public:
  TileQueue(std::uint64_t total, std::uint64_t smallest, std::uint64_t largest, int devices);
  // The next tile's positions [first, first + count); false when all are handed out.
  bool next(std::uint64_t& first, std::uint64_t& count);

 private:
  std::mutex mutex_;
  std::uint64_t total_, smallest_, largest_, given_ = 0;
  int devices_;
};

// Counts known so far for each pixel of a width × height grid (−1: not yet). Written by the
// thread that received a pixel's count, read by all.
class KnownCounts {
 public:
  KnownCounts(std::int64_t width, std::int64_t height);
  void set(std::uint64_t pixel, std::int32_t count) {
    known_[pixel].store(count, std::memory_order_relaxed);
  }
  std::int32_t get(std::uint64_t pixel) const { return known_[pixel].load(std::memory_order_relaxed); }
  // The longest known count within two pixels, or `steps` when none is known.
  std::int64_t predicted(std::uint64_t pixel, std::int64_t steps) const;
  bool any() const { return any_.load(std::memory_order_relaxed); }
  void mark_any() { any_.store(true, std::memory_order_relaxed); }

 private:
  std::int64_t width_, height_;
  std::unique_ptr<std::atomic<std::int32_t>[]> known_;
  std::atomic<bool> any_{false};
};

// Sorts `pixels` by predicted count, longest first (stable, so equal predictions keep the
// spread order).
void order_longest_first(std::span<std::uint64_t> pixels, const KnownCounts& known,
                         std::int64_t steps);

}  // namespace orrery
