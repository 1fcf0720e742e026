// SPDX-License-Identifier: MIT
// The order in which the GPU backend hands out pixels (plain host code).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>
#include <vector>

#include "ensemble/schedule/work_pool.hpp"

namespace orrery {
namespace {

std::vector<std::uint64_t> drain(WorkPool& pool, std::size_t chunk) {
  std::vector<std::uint64_t> all, buf(chunk);
  while (std::size_t n = pool.take(buf)) all.insert(all.end(), buf.begin(), buf.begin() + n);
  return all;
}

TEST(WorkPool, SpreadOrderVisitsEveryPixelOnce) {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 100ull, 999983ull, 1000000ull}) {
    const std::uint64_t s = spreading_stride(n);
    std::vector<char> seen(n, 0);
    for (std::uint64_t q = 0; q < n; ++q) seen[(q * s) % n] += 1;
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](char c) { return c == 1; })) << n;
  }
}

TEST(WorkPool, AStretchOfTheOrderSamplesTheWholeMap) {
  // The first tenth of a 1000×1000 order touches every 100×100 block of the map.
  std::vector<std::int32_t> known(1000000, -1);
  WorkPool pool(1000000, true, 1000, 1000, 50000, known.data());
  std::vector<std::uint64_t> first(100000);
  ASSERT_EQ(pool.take(first), first.size());
  std::set<std::uint64_t> blocks;
  for (auto p : first) blocks.insert((p / 1000) / 100 * 10 + (p % 1000) / 100);
  EXPECT_EQ(blocks.size(), 100u);
}

TEST(WorkPool, HandsOutEveryItemOnce) {
  std::vector<std::int32_t> known(37 * 23, -1);
  for (std::size_t chunk : {1, 7, 4096}) {
    WorkPool grid(37 * 23, true, 37, 23, 100, known.data());
    auto items = drain(grid, chunk);
    std::sort(items.begin(), items.end());
    ASSERT_EQ(items.size(), 37u * 23u);
    for (std::uint64_t i = 0; i < items.size(); ++i) ASSERT_EQ(items[i], i);
  }
  WorkPool list(5, false, 0, 0, 100, nullptr);
  EXPECT_EQ(drain(list, 2), (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
}

TEST(WorkPool, TheLastHalfGoesLongestFirst) {
  // Counts known for the pixels handed out so far; the remainder is then sorted by the longest
  // count known near each pixel, so the map ends on its expected-shortest pixels.
  const std::int64_t w = 60, h = 40;
  std::vector<std::int32_t> known(w * h, -1);
  WorkPool pool(w * h, true, w, h, 1000, known.data());
  std::vector<std::uint64_t> buf(w * h / 2);
  ASSERT_EQ(pool.take(buf), buf.size());
  for (auto p : buf) known[p] = static_cast<std::int32_t>(10 * (p % w));  // longer to the right
  // The next take starts the sort on its own thread and hands out a few unsorted pixels.
  std::vector<std::uint64_t> first(16);
  ASSERT_EQ(pool.take(first), first.size());
  pool.settle();
  const auto rest = drain(pool, 16);
  ASSERT_EQ(rest.size(), static_cast<std::size_t>(w * h) - buf.size() - first.size());
  for (auto p : first) EXPECT_EQ(std::count(rest.begin(), rest.end(), p), 0);
  for (std::size_t i = 1; i < rest.size(); ++i)
    EXPECT_GE(predicted_count(rest[i - 1], known.data(), w, h, 1000),
              predicted_count(rest[i], known.data(), w, h, 1000));
  EXPECT_GT(rest.front() % w, 50u);
  EXPECT_LT(rest.back() % w, 10u);
}

TEST(WorkPool, DealsEqualStretchesFirst) {
  // 4 parts, 9 of 10 positions dealt: each part first gets its own quarter of the first 1800
  // positions of the order, then the shared tenth.
  const std::int64_t w = 50, h = 40;
  std::vector<std::int32_t> known(w * h, -1);
  WorkPool pool(w * h, true, w, h, 1000, known.data(), 4, 1800);
  const std::uint64_t s = spreading_stride(w * h);
  for (std::size_t part = 0; part < 4; ++part) {
    std::vector<std::uint64_t> own(450);
    ASSERT_EQ(pool.take(own, part), own.size());
    for (std::uint64_t k = 0; k < own.size(); ++k)
      ASSERT_EQ(own[k], ((450 * part + k) * s) % (w * h)) << "part " << part << " item " << k;
  }
  std::vector<std::uint64_t> shared(10);
  ASSERT_EQ(pool.take(shared, 2), shared.size());
  for (std::uint64_t k = 0; k < shared.size(); ++k)
    EXPECT_EQ(shared[k], ((1800 + k) * s) % (w * h));
}

TEST(WorkPool, DealtPartsCarryTheSameWork) {
  // On a map whose counts vary across it (long in one corner, short elsewhere) the four deals
  // of the spread order hold the same work within 0.2 %.
  const std::int64_t w = 400, h = 300;
  auto count = [&](std::uint64_t p) {
    const double x = double(p % w) / w, y = double(p / w) / h;
    return x * x + y > 1.0 ? 50000.0 : 1000.0 + 40000.0 * x * y;
  };
  WorkPool pool(w * h, true, w, h, 50000, nullptr, 4, w * h);
  std::vector<double> work(4, 0.0);
  std::vector<std::uint64_t> buf(w * h / 4);
  for (std::size_t part = 0; part < 4; ++part) {
    ASSERT_EQ(pool.take(buf, part), buf.size());
    for (auto p : buf) work[part] += count(p);
  }
  const double mean = (work[0] + work[1] + work[2] + work[3]) / 4;
  // Consecutive stretches hold within 0.08 % here, every fourth position within 0.9 %: the bound
  // tells the two apart.
  for (double x : work) EXPECT_NEAR(x / mean, 1.0, 0.002);
}

TEST(WorkPool, APartWithNothingLeftTakesTheBackOfTheLargestDeal) {
  // Part 0 alone drains the pool: its deal, the shared rest, then the others' deals from their
  // ends, so what a slow device had not started yet goes to the one that asks.
  const std::uint64_t n = 103;
  WorkPool pool(n, false, 0, 0, 100, nullptr, 3, 90);  // deals 0–29, 30–59, 60–89; 13 shared
  std::vector<std::uint64_t> buf(30 + 13);
  ASSERT_EQ(pool.take(buf, 0), buf.size());
  EXPECT_EQ(buf[29], 29u);
  EXPECT_EQ(buf[30], 90u);
  std::vector<std::uint64_t> one(1);
  ASSERT_EQ(pool.take(one, 0), 1u);
  EXPECT_EQ(one[0], 59u);  // the end of part 1's deal (ties: the first part)
  ASSERT_EQ(pool.take(one, 0), 1u);
  EXPECT_EQ(one[0], 89u);  // then part 2's, now the largest
  std::vector<std::uint64_t> first(2);
  ASSERT_EQ(pool.take(first, 1), 2u);  // part 1 still starts at its front
  EXPECT_EQ(first, (std::vector<std::uint64_t>{30, 31}));
}

TEST(WorkPool, WithoutStealingAPartTakesOnlyItsDealAndTheSharedRest) {
  const std::uint64_t n = 103;
  WorkPool pool(n, false, 0, 0, 100, nullptr, 3, 90);  // deals 0–29, 30–59, 60–89; 13 shared
  std::vector<std::uint64_t> buf(50);
  ASSERT_EQ(pool.take(buf, 0, false), 43u);  // 0–29 and 90–102, none of the others' deals
  EXPECT_EQ(buf[42], 102u);
  EXPECT_EQ(pool.take(buf, 0, false), 0u);
  std::vector<std::uint64_t> one(1);
  ASSERT_EQ(pool.take(one, 0), 1u);  // stealing, when asked to
  EXPECT_EQ(one[0], 59u);
  ASSERT_EQ(pool.take(buf, 1, false), 29u);  // part 1 keeps the rest of its deal
  EXPECT_EQ(buf[0], 30u);
}

TEST(WorkPool, RebalanceMovesUnstartedItemsToTheFasterParts) {
  // Two parts dealt 50 each have taken 10 each; part 0 turned out three times as fast, so it is
  // owed 75 in all: 25 of part 1's unstarted items move to it, taken from the end of part 1's
  // deal. Every item is still handed out once.
  WorkPool pool(100, false, 0, 0, 100, nullptr, 2, 100);
  std::vector<std::uint64_t> ten(10), all;
  ASSERT_EQ(pool.take(ten, 0), 10u);
  all.insert(all.end(), ten.begin(), ten.end());
  ASSERT_EQ(pool.take(ten, 1), 10u);
  all.insert(all.end(), ten.begin(), ten.end());
  const double speeds[] = {3.0, 1.0};
  EXPECT_EQ(pool.rebalance(speeds), 25u);
  std::vector<std::uint64_t> buf(100);
  ASSERT_EQ(pool.take(buf, 0, false), 65u);  // 10–49, then 99 down to 75
  EXPECT_EQ(buf[39], 49u);
  EXPECT_EQ(buf[40], 99u);
  EXPECT_EQ(buf[64], 75u);
  all.insert(all.end(), buf.begin(), buf.begin() + 65);
  ASSERT_EQ(pool.take(buf, 1, false), 15u);  // 60–74
  EXPECT_EQ(buf[14], 74u);
  all.insert(all.end(), buf.begin(), buf.begin() + 15);
  std::sort(all.begin(), all.end());
  for (std::uint64_t i = 0; i < 100; ++i) ASSERT_EQ(all[i], i);
}

TEST(WorkPool, RebalanceWithoutUsableSpeedsMovesNothing) {
  WorkPool pool(100, false, 0, 0, 100, nullptr, 2, 100);
  const double zero[] = {1.0, 0.0}, nan[] = {1.0, std::nan("")}, one[] = {1.0};
  EXPECT_EQ(pool.rebalance(zero), 0u);
  EXPECT_EQ(pool.rebalance(nan), 0u);
  EXPECT_EQ(pool.rebalance(one), 0u);
  const double equal[] = {1.0, 1.0};
  EXPECT_EQ(pool.rebalance(equal), 0u);  // the deals already match
}

TEST(WorkPool, StealingTakesItemsMovedToADealFirst) {
  WorkPool pool(100, false, 0, 0, 100, nullptr, 2, 100);
  const double speeds[] = {1.0, 3.0};
  ASSERT_EQ(pool.rebalance(speeds), 25u);  // 49 down to 25 move to part 1
  std::vector<std::uint64_t> buf(100);
  ASSERT_EQ(pool.take(buf, 0, false), 25u);
  std::vector<std::uint64_t> one(1);
  ASSERT_EQ(pool.take(one, 0), 1u);
  EXPECT_EQ(one[0], 25u);  // the last item moved to part 1
}

TEST(WorkPool, PredictionIsTheLongestKnownNearby) {
  std::vector<std::int32_t> known(100, -1);
  known[0] = 500;  // (0, 0)
  known[99] = 20;  // (9, 9)
  EXPECT_EQ(predicted_count(11, known.data(), 10, 10, 1000), 500);  // (1, 1)
  EXPECT_EQ(predicted_count(88, known.data(), 10, 10, 1000), 20);   // (8, 8)
  EXPECT_EQ(predicted_count(7, known.data(), 10, 10, 1000), 1000);  // (7, 0): nothing known
}

}  // namespace
}  // namespace orrery

namespace orrery {
namespace {

TEST(WorkPool, ManyTakersGetEveryItemExactlyOnce) {
  // As devices do: several threads take concurrently across the sort of the last half, with
  // counts arriving meanwhile, and take from each other's deals at the end.
  for (int round = 0; round < 20; ++round) {
    const std::int64_t w = 97, h = 61;
    std::vector<std::int32_t> known(w * h, -1);
    // Some rounds deal part of the map to the four takers first.
    const std::uint64_t dealt = static_cast<std::uint64_t>(w * h) * (round % 4) / 3;
    WorkPool pool(w * h, true, w, h, 1000, known.data(), 4, dealt);
    std::vector<std::vector<std::uint64_t>> got(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        std::vector<std::uint64_t> buf(1 + (t * 37 + round) % 50);
        while (std::size_t n = pool.take(buf, static_cast<std::size_t>(t)))
          for (std::size_t i = 0; i < n; ++i) {
            got[t].push_back(buf[i]);
            std::atomic_ref<std::int32_t>(known[buf[i]]).store(static_cast<std::int32_t>(buf[i] % 500));
          }
      });
    for (auto& th : threads) th.join();
    std::vector<std::uint64_t> all;
    for (auto& g : got) all.insert(all.end(), g.begin(), g.end());
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), static_cast<std::size_t>(w * h)) << "round " << round;
    for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i) << "round " << round;
  }
}

}  // namespace
}  // namespace orrery
