// SPDX-License-Identifier: MIT
#include "tile_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace orrery {

namespace {
std::uint64_t gcd(std::uint64_t a, std::uint64_t b) { return b == 0 ? a : gcd(b, a % b); }
}  // namespace

std::uint64_t spreading_stride(std::uint64_t pixels) {
  if (pixels < 3) return 1;
  auto s = static_cast<std::uint64_t>(0.6180339887498949 * static_cast<double>(pixels));
  while (gcd(s, pixels) != 1) ++s;
  return s;
}

TileQueue::TileQueue(std::uint64_t total, std::uint64_t smallest, std::uint64_t largest,
                     int devices)
    : total_(total),
      smallest_(std::max<std::uint64_t>(1, std::min(smallest, largest))),
      largest_(std::max<std::uint64_t>(1, largest)),
      devices_(devices) {}

bool TileQueue::next(std::uint64_t& first, std::uint64_t& count) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (given_ >= total_) return false;
  const std::uint64_t remaining = total_ - given_;
  const std::uint64_t guided = remaining / (2 * static_cast<std::uint64_t>(devices_));
  count = std::min(remaining, std::clamp(guided, smallest_, largest_));
  first = given_;
  given_ += count;
  return true;
}

KnownCounts::KnownCounts(std::int64_t width, std::int64_t height)
    : width_(width),
      height_(height),
      known_(new std::atomic<std::int32_t>[static_cast<std::size_t>(width * height)]) {
  for (std::int64_t i = 0; i < width * height; ++i) known_[i].store(-1, std::memory_order_relaxed);
}

std::int64_t KnownCounts::predicted(std::uint64_t pixel, std::int64_t steps) const {
  const auto j = static_cast<std::int64_t>(pixel % width_);
  const auto k = static_cast<std::int64_t>(pixel / width_);
  std::int64_t longest = -1;
  for (std::int64_t dk = -2; dk <= 2; ++dk)
    for (std::int64_t dj = -2; dj <= 2; ++dj) {
      const std::int64_t jj = j + dj, kk = k + dk;
      if (jj < 0 || jj >= width_ || kk < 0 || kk >= height_) continue;
      longest = std::max<std::int64_t>(longest, get(static_cast<std::uint64_t>(kk * width_ + jj)));
    }
  return longest < 0 ? steps : longest;
}

void order_longest_first(std::span<std::uint64_t> pixels, const KnownCounts& known,
                         std::int64_t steps) {
  std::vector<std::pair<std::int64_t, std::uint64_t>> keyed(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i)
    keyed[i] = {known.predicted(pixels[i], steps), pixels[i]};
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = keyed[i].second;
}

}  // namespace orrery
