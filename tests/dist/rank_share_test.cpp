// SPDX-License-Identifier: MIT
// The tiles of a job over ranks (dist/rank_share.hpp): every item of [0, N) on exactly one rank,
// dealt in turn, for work smaller and larger than the ranks; one process keeps its threads and
// devices as asked.
#include <gtest/gtest.h>

#include <vector>

#include "orrery/dist/rank_share.hpp"

namespace orrery {
namespace {

TEST(RankShare, InterleavedTilesCoverEveryItemOnce) {
  for (const std::int64_t total : {0, 1, 2, 3, 21, 1001}) {
    for (const int size : {1, 2, 3, 4, 5}) {
      const std::int64_t tile = dist::tile_size(total, size);
      ASSERT_GE(tile, 1);
      ASSERT_LE(tile, dist::kMaxTile);
      std::vector<int> owner(static_cast<std::size_t>(total), -1);
      std::int64_t counted = 0;
      for (int rank = 0; rank < size; ++rank) {
        const auto tiles = dist::interleaved_tiles(total, tile, rank, size);
        counted += dist::items_in(tiles);
        for (const dist::ItemRange& t : tiles) {
          ASSERT_LT(t.begin, t.end);
          ASSERT_LE(t.end, total);
          // Tile t of the whole goes to rank t mod size.
          EXPECT_EQ((t.begin / tile) % size, rank) << total << " items, " << size << " ranks";
          for (std::int64_t i = t.begin; i < t.end; ++i) {
            EXPECT_EQ(owner[static_cast<std::size_t>(i)], -1) << "item " << i << " twice";
            owner[static_cast<std::size_t>(i)] = rank;
          }
        }
      }
      EXPECT_EQ(counted, total) << size << " ranks";
    }
  }
}

TEST(RankShare, EachRankGetsSeveralTilesOfLargeWork) {
  const std::int64_t total = 1'000'000;
  const std::int64_t tile = dist::tile_size(total, 4);
  EXPECT_GE(dist::items_in(dist::interleaved_tiles(total, tile, 3, 4)) / tile,
            dist::kTilesPerRank - 1);
}

TEST(RankShare, OneProcessKeepsItsThreadsAndDevices) {
  EXPECT_EQ(dist::rank_threads(0), 0);
  EXPECT_EQ(dist::rank_threads(3), 3);
  EXPECT_TRUE(dist::rank_devices(Backend::automatic, {}).empty());
  EXPECT_EQ(dist::rank_devices(Backend::cuda, {1}), std::vector<int>{1});
}

}  // namespace
}  // namespace orrery
