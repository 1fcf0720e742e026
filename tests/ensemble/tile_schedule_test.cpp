// SPDX-License-Identifier: MIT
// The tile schedule of the GPU backend, which is plain host code.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "ensemble/tile_schedule.hpp"

namespace orrery {
namespace {

TEST(TileSchedule, SpreadOrderVisitsEveryPixelOnce) {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 100ull, 1000000ull, 999983ull}) {
    const std::uint64_t s = spreading_stride(n);
    std::vector<char> seen(n, 0);
    for (std::uint64_t q = 0; q < n; ++q) seen[(q * s) % n] += 1;
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](char c) { return c == 1; })) << n;
  }
}

TEST(TileSchedule, ARangeOfTheOrderSamplesTheWholeMap) {
  // The first tenth of a 1000×1000 order touches every 100×100 block of the map.
  const std::uint64_t n = 1000000, s = spreading_stride(n);
  std::set<std::uint64_t> blocks;
  for (std::uint64_t q = 0; q < n / 10; ++q) {
    const std::uint64_t p = (q * s) % n;
    blocks.insert((p / 1000) / 100 * 10 + (p % 1000) / 100);
  }
  EXPECT_EQ(blocks.size(), 100u);
}

TEST(TileSchedule, TilesCoverEverythingOnceAndShrink) {
  TileQueue queue(1000, 50, 300, 2);
  std::uint64_t first = 0, count = 0, expected = 0, previous = 1000;
  while (queue.next(first, count)) {
    EXPECT_EQ(first, expected);
    EXPECT_LE(count, 300u);
    EXPECT_LE(count, previous);
    EXPECT_TRUE(count >= 50 || first + count == 1000);
    expected += count;
    previous = count;
  }
  EXPECT_EQ(expected, 1000u);
}

TEST(TileSchedule, LongestKnownNeighbourhoodsComeFirst) {
  KnownCounts known(10, 10);
  known.set(0, 500);       // (0, 0): long
  known.set(99, 20);       // (9, 9): short
  known.set(55, 7);        // (5, 5): short
  known.mark_any();
  // (8, 8) is near (9, 9), (1, 1) near (0, 0), (4, 4) near (5, 5); (7, 0) has no known count
  // within two pixels and counts as the longest.
  std::vector<std::uint64_t> pixels{88, 11, 44, 7};
  order_longest_first(pixels, known, 1000);
  EXPECT_EQ(pixels, (std::vector<std::uint64_t>{7, 11, 88, 44}));
}

}  // namespace
}  // namespace orrery
