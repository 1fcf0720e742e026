// SPDX-License-Identifier: MIT
#include "work_pool.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

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

std::int64_t predicted_count(std::uint64_t pixel, const std::int32_t* known, std::int64_t width,
                             std::int64_t height, std::int64_t steps) {
  const auto j = static_cast<std::int64_t>(pixel % static_cast<std::uint64_t>(width));
  const auto k = static_cast<std::int64_t>(pixel / static_cast<std::uint64_t>(width));
  std::int64_t longest = -1;
  for (std::int64_t kk = std::max<std::int64_t>(0, k - 2); kk <= std::min(height - 1, k + 2); ++kk)
    for (std::int64_t jj = std::max<std::int64_t>(0, j - 2); jj <= std::min(width - 1, j + 2); ++jj) {
      // Written by devices while we read: a relaxed atomic view of each entry.
      const std::int32_t c = std::atomic_ref<const std::int32_t>(known[kk * width + jj])
                                 .load(std::memory_order_relaxed);
      longest = std::max<std::int64_t>(longest, c);
    }
  return longest < 0 ? steps : longest;
}

WorkPool::WorkPool(std::uint64_t total, bool grid, std::int64_t width, std::int64_t height,
                   std::int64_t steps, const std::int32_t* known, std::size_t parts,
                   std::uint64_t dealt)
    : total_(total),
      dealt_(std::min(dealt, total)),
      given_(dealt_),
      stride_(grid ? spreading_stride(total) : 1),
      deals_(std::max<std::size_t>(parts, 1)),
      grid_(grid),
      width_(width),
      height_(height),
      steps_(steps),
      known_(known) {
  const auto dealt128 = static_cast<unsigned __int128>(dealt_);
  for (std::size_t p = 0; p < deals_.size(); ++p) {
    deals_[p].front = static_cast<std::uint64_t>(dealt128 * p / deals_.size());
    deals_[p].back = static_cast<std::uint64_t>(dealt128 * (p + 1) / deals_.size());
  }
}

WorkPool::~WorkPool() {
  if (sorter_.joinable()) sorter_.join();
}

void WorkPool::settle() {
  std::unique_lock<std::mutex> lock(mutex_);
  sorted_cv_.wait(lock, [&] { return !sorting_ || sorted_ready_; });
}

std::uint64_t WorkPool::spread(std::uint64_t q) const {
  return grid_ ? static_cast<std::uint64_t>((static_cast<unsigned __int128>(q) * stride_) % total_)
               : q;
}

// Positions q, q+1, … of the order: one multiplication, then additions (the pool hands out
// hundreds of thousands of pixels within the first millisecond of a run, under its lock).
void WorkPool::spread_run(std::uint64_t q, std::span<std::uint64_t> out) const {
  if (out.empty()) return;
  std::uint64_t p = spread(q);
  const std::uint64_t step = grid_ ? stride_ : 1;
  for (auto& o : out) {
    o = p;
    p += step;  // both below total ≤ 2^63
    if (p >= total_) p -= total_;
  }
}

// Sorts the positions [from, total) by prediction, without the lock; then, under it, drops what
// was handed out meanwhile (positions [from, given_)) and switches to the sorted list.
void WorkPool::sort_remainder(std::uint64_t from) {
  std::vector<std::pair<std::int64_t, std::uint64_t>> keyed;
  keyed.reserve(total_ - from);
  for (std::uint64_t q = from; q < total_; ++q) {
    const std::uint64_t p = spread(q);
    keyed.emplace_back(predicted_count(p, known_, width_, height_, steps_), p);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<char> taken(total_, 0);
  for (std::uint64_t q = from; q < given_; ++q) taken[spread(q)] = 1;
  sorted_.reserve(keyed.size());
  for (const auto& [_, p] : keyed)
    if (!taken[p]) sorted_.push_back(p);
  given_ = total_;
  sorted_ready_ = true;
  sorted_cv_.notify_all();
}

std::size_t WorkPool::take(std::span<std::uint64_t> out, std::size_t part, bool steal) {
  std::unique_lock<std::mutex> lock(mutex_);
  Deal& own = deals_.at(part);
  std::size_t n = std::min<std::uint64_t>(out.size(), own.back - own.front);
  spread_run(own.front, out.first(n));
  own.front += n;
  if (n == out.size()) return n;
  n += take_shared(out.subspan(n), lock);
  while (steal && n < out.size()) {  // the back of the largest deal left
    Deal* largest = &own;
    for (Deal& d : deals_)
      if (d.back - d.front > largest->back - largest->front) largest = &d;
    if (largest->front == largest->back) break;
    out[n++] = spread(--largest->back);
  }
  return n;
}

// The shared positions [dealt, total): in order until half of them are handed out, then sorted.
std::size_t WorkPool::take_shared(std::span<std::uint64_t> out,
                                  std::unique_lock<std::mutex>& lock) {
  std::size_t n = 0;
  if (sorted_ready_) {
    while (n < out.size() && sorted_next_ < sorted_.size()) out[n++] = sorted_[sorted_next_++];
    return n;
  }
  if (grid_ && !sorting_ && 2 * (total_ - given_) <= total_ - dealt_ &&
      total_ - given_ > out.size()) {
    sorting_ = true;
    sorter_ = std::thread([this, from = given_] { sort_remainder(from); });
  }
  n = std::min<std::uint64_t>(out.size(), total_ - given_);
  spread_run(given_, out.first(n));
  given_ += n;
  if (n == 0 && sorting_) {
    // Everything unsorted is handed out before the sort finished: the sort holds the rest.
    sorted_cv_.wait(lock, [&] { return sorted_ready_; });
    while (n < out.size() && sorted_next_ < sorted_.size()) out[n++] = sorted_[sorted_next_++];
  }
  return n;
}

}  // namespace orrery
