// SPDX-License-Identifier: MIT
// The tiles of a job over ranks (dist/rank_share.hpp): every item of [0, N) on exactly one rank,
// dealt in turn, for work smaller and larger than the ranks; one process keeps its threads and
// devices as asked; an N-body run's slices of the bodies, contiguous and in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "orrery/dist/bodies_over_ranks.hpp"
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

TEST(RankShare, BodySlicesFollowEachOtherInTheGlobalOrder) {
  // An N-body run's slices (dist/bodies_over_ranks.hpp): rank r's bodies right after rank
  // r − 1's, all of [0, N), sizes within one of each other, so that the slices gathered in rank
  // order are the bodies in their order.
  for (const std::size_t n : {4u, 5u, 37u, 1024u, 1000003u}) {
    for (const int size : {1, 2, 3, 4}) {
      std::size_t next = 0, least = n, most = 0;
      for (int rank = 0; rank < size; ++rank) {
        const dist::BodySlice s = dist::body_slice(n, rank, size);
        EXPECT_EQ(s.begin, next) << n << " bodies, rank " << rank << " of " << size;
        next = s.end;
        least = std::min(least, s.size());
        most = std::max(most, s.size());
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(most - least, 1u) << n << " bodies over " << size;
    }
  }
}

TEST(RankShare, ASliceOfParticlesHoldsItsBodiesInOrder) {
  Particles<double> whole;
  whole.resize(5);
  for (std::size_t i = 0; i < 5; ++i) {
    whole.x[i] = static_cast<double>(i);
    whole.mass[i] = 1.0 + static_cast<double>(i);
    whole.id[i] = 10 + i;
  }
  const Particles<double> part = dist::particles_of(whole, dist::body_slice(5, 1, 2));
  ASSERT_EQ(part.size(), 3u);  // bodies 2, 3, 4
  EXPECT_EQ(part.x, (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(part.mass, (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(part.id, (std::vector<std::uint64_t>{12, 13, 14}));
  EXPECT_TRUE(part.softening.empty());  // a global ε stays global
}

}  // namespace
}  // namespace orrery
