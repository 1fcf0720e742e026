// SPDX-License-Identifier: MIT
// dist/tree_domains.hpp: cuts of the Morton curve found by histograms of the work, refined where
// the cuts fall.
#include "dist/tree_domains.hpp"

#include <algorithm>

#include "orrery/core/morton.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

constexpr int kFinest = kMortonBitsPerAxis;
constexpr std::uint64_t kPastEveryKey = std::uint64_t{1} << (3 * kMortonBitsPerAxis);
// Levels a round descends: the first round 4 (4096 cells of the whole box), then 3 (512).
constexpr int kFirstLevels = 4, kLevelsPerRound = 3;
// A cut is placed once its cell holds at most this fraction of a domain's work.
constexpr std::uint64_t kCellShareOfDomain = 256;

int shift_of(int level) { return 3 * (kFinest - level); }

// Where a cut stands: inside the cell [begin, begin + 2^shift_of(level)), with `before` work
// on the curve ahead of the cell and `cell` work inside it.
struct CutCell {
  std::uint64_t target = 0, begin = 0, before = 0, cell = 0;
  int level = 0;
  bool placed = false;
};

// This rank's work in the 8^levels sub-cells of each open cut's cell, one histogram per
// distinct cell (cuts that share a cell, as every cut does at first, share its histogram);
// `which` gives each cut's histogram.
void add_histograms(std::span<const std::uint64_t> keys, std::span<const std::uint64_t> work,
                    const std::vector<CutCell>& cuts, int levels, std::vector<std::int64_t>& h,
                    std::vector<std::size_t>& which) {
  const std::size_t bins = std::size_t{1} << (3 * levels);
  h.clear();
  which.assign(cuts.size(), 0);
  const CutCell* last = nullptr;
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    if (cuts[c].placed) continue;
    if (last && last->begin == cuts[c].begin) {  // cuts are in order along the curve
      which[c] = h.size() / bins - 1;
      continue;
    }
    last = &cuts[c];
    which[c] = h.size() / bins;
    h.resize(h.size() + bins, 0);
    std::int64_t* out = h.data() + h.size() - bins;
    const std::uint64_t begin = cuts[c].begin;
    const std::uint64_t end = begin + (std::uint64_t{1} << shift_of(cuts[c].level));
    const int sub = shift_of(cuts[c].level + levels);
    auto k = std::lower_bound(keys.begin(), keys.end(), begin);
    for (; k != keys.end() && *k < end; ++k)
      out[(*k - begin) >> sub] +=
          static_cast<std::int64_t>(work[static_cast<std::size_t>(k - keys.begin())]);
  }
}

}  // namespace

std::vector<std::uint64_t> domain_cuts(std::span<const std::uint64_t> keys,
                                       std::span<const std::uint64_t> work, int ranks) {
  std::vector<std::uint64_t> cuts(static_cast<std::size_t>(ranks) + 1, 0);
  cuts.back() = kPastEveryKey;
  if (ranks == 1) return cuts;
  std::int64_t mine = 0;
  for (const std::uint64_t w : work) mine += static_cast<std::int64_t>(w);
  const auto total = static_cast<std::uint64_t>(sum_over_ranks(mine));
  const std::uint64_t small = std::max<std::uint64_t>(1, total / ranks / kCellShareOfDomain);
  std::vector<CutCell> cells(static_cast<std::size_t>(ranks) - 1);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    cells[c].target = static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * (c + 1) /
                                                 static_cast<unsigned>(ranks));
    cells[c].cell = total;
  }
  std::vector<std::int64_t> h, every, summed;
  std::vector<std::size_t> which;
  const auto size = static_cast<std::size_t>(ranks);
  for (int round = 0;; ++round) {
    bool open = false;
    for (const CutCell& c : cells) open = open || !c.placed;
    if (!open) break;  // alike on every rank: the sums are
    int levels = round == 0 ? kFirstLevels : kLevelsPerRound;
    for (const CutCell& c : cells)
      if (!c.placed) levels = std::min(levels, kFinest - c.level);
    add_histograms(keys, work, cells, levels, h, which);
    // Every rank's histograms, summed in integers: the same sums on every rank.
    every.assign(size * h.size(), 0);  // all of it written where there are `size` ranks
    const std::vector<std::int64_t> counts(size, static_cast<std::int64_t>(h.size()));
    all_gather<std::int64_t>(h, every, counts);
    summed.assign(h.size(), 0);
    for (std::size_t r = 0; r < size; ++r)
      for (std::size_t i = 0; i < h.size(); ++i) summed[i] += every[r * h.size() + i];
    const std::size_t bins = std::size_t{1} << (3 * levels);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      CutCell& cut = cells[c];
      if (cut.placed) continue;
      const int sub = shift_of(cut.level + levels);
      std::uint64_t before = cut.before;
      std::size_t b = 0;
      for (; b + 1 < bins; ++b) {
        const auto w = static_cast<std::uint64_t>(summed[which[c] * bins + b]);
        if (before + w > cut.target) break;
        before += w;
      }
      cut.begin += static_cast<std::uint64_t>(b) << sub;
      cut.level += levels;
      cut.before = before;
      cut.cell = static_cast<std::uint64_t>(summed[which[c] * bins + b]);
      cut.placed = cut.cell <= small || cut.level >= kFinest;
    }
  }
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const CutCell& cut = cells[c];
    const std::uint64_t end = cut.begin + (std::uint64_t{1} << shift_of(cut.level));
    const bool nearer_begin = cut.target - cut.before <= cut.before + cut.cell - cut.target;
    cuts[c + 1] = std::max(cuts[c], nearer_begin ? cut.begin : end);
  }
  return cuts;
}

int domain_of(std::span<const std::uint64_t> cuts, std::uint64_t key) {
  return static_cast<int>(std::upper_bound(cuts.begin(), cuts.end(), key) - cuts.begin()) - 1;
}

}  // namespace orrery::dist
