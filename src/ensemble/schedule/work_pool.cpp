// SPDX-License-Identifier: MIT
#include "ensemble/schedule/work_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
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

// The items moved to a deal, after the first `n` places of `out`, which the caller fills from
// the deal's positions (reserved here, spread outside the lock).
std::size_t WorkPool::take_deal(Deal& d, std::span<std::uint64_t> out, std::uint64_t& first,
                                std::size_t& n) {
  n = std::min<std::uint64_t>(out.size(), d.back - d.front);
  first = d.front;
  d.front += n;
  const std::size_t m = std::min(out.size() - n, d.moved.size());
  std::copy_n(d.moved.begin(), m, out.begin() + static_cast<std::ptrdiff_t>(n));
  d.moved.erase(d.moved.begin(), d.moved.begin() + static_cast<std::ptrdiff_t>(m));
  return n + m;
}

// The last unstarted item of a deal: the items moved to it, then its positions from the back.
bool WorkPool::take_back(Deal& d, std::uint64_t& item) {
  if (!d.moved.empty()) {
    item = d.moved.back();
    d.moved.pop_back();
    return true;
  }
  if (d.front == d.back) return false;
  item = spread(--d.back);
  return true;
}

std::size_t WorkPool::take(std::span<std::uint64_t> out, std::size_t part, bool steal) {
  std::unique_lock<std::mutex> lock(mutex_);
  Deal& own = deals_.at(part);
  std::uint64_t first = 0;
  std::size_t run = 0;
  std::size_t n = take_deal(own, out, first, run);
  if (n < out.size()) n += take_shared(out.subspan(n), lock);
  while (steal && n < out.size()) {  // the back of the largest deal left
    Deal* largest = &own;
    for (Deal& d : deals_)
      if (d.left() > largest->left()) largest = &d;
    if (!take_back(*largest, out[n])) break;
    ++n;
  }
  own.taken += n;
  lock.unlock();
  // Several devices fill their queues at once at the start of a map: the spreading is done
  // outside the lock, so that they do not take turns.
  spread_run(first, out.first(run));
  return n;
}

std::uint64_t WorkPool::rebalance(std::span<const double> speeds) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (speeds.size() != deals_.size()) return 0;
  double sum = 0;
  for (double s : speeds) {
    if (!(s > 0) || !std::isfinite(s)) return 0;
    sum += s;
  }
  // What each part is owed beyond what it has taken, against what its deal still holds.
  std::vector<std::int64_t> excess(deals_.size());
  for (std::size_t p = 0; p < deals_.size(); ++p) {
    const auto owed = static_cast<std::int64_t>(std::llround(static_cast<double>(total_) *
                                                             speeds[p] / sum)) -
                      static_cast<std::int64_t>(deals_[p].taken);
    excess[p] = static_cast<std::int64_t>(deals_[p].left()) - std::max<std::int64_t>(owed, 0);
  }
  std::uint64_t moved = 0;
  for (std::size_t to = 0; to < deals_.size(); ++to)
    for (std::size_t from = 0; from < deals_.size() && excess[to] < 0; ++from)
      for (std::uint64_t item; excess[from] > 0 && excess[to] < 0 &&
                               take_back(deals_[from], item);) {
        deals_[to].moved.push_back(item);
        --excess[from], ++excess[to], ++moved;
      }
  return moved;
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
