// SPDX-License-Identifier: MIT
// Collecting results while they are written (plain host code behind the CUDA backend).
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "ensemble/schedule/result_collector.hpp"
#include "orrery/core/error.hpp"

namespace orrery {
namespace {

DivergenceCounts sized(std::size_t n) {
  DivergenceCounts out;
  out.counts.resize(n);
  out.nonfinite.resize(n);
  return out;
}

TEST(ResultCollector, AWordHoldsTheCountAndTheNonFiniteFlag) {
  std::vector<std::int32_t> words = {result_word(0, false), result_word(0, true),
                                     result_word(50000, false), result_word(49999, true),
                                     result_word(2147483646, true), result_word(2147483647, false)};
  for (std::int32_t w : words) EXPECT_NE(w, kNotYet);
  DivergenceCounts out = sized(words.size());
  ResultCollector c(words.data(), out);
  c.finish();
  EXPECT_EQ(out.counts, (std::vector<std::int32_t>{0, 0, 50000, 49999, 2147483646, 2147483647}));
  EXPECT_EQ(out.nonfinite, (std::vector<std::uint8_t>{0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(out.pixel_steps, 0 + 0 + 50000 + 49999 + 2147483646ll + 2147483647ll);
  EXPECT_EQ(out.nonfinite_pixels, 3);
}

TEST(ResultCollector, SweepsCopyWhatHasArrivedAndKeepTheRest) {
  std::vector<std::int32_t> words(10, kNotYet);
  DivergenceCounts out = sized(words.size());
  ResultCollector c(words.data(), out);
  words[3] = 7;
  EXPECT_EQ(c.sweep(), 9u);
  EXPECT_EQ(c.pixels_done(), 1);
  for (int i = 0; i < 10; ++i) words[i] = i == 3 ? 99 : result_word(i, i == 5);  // 3 stays 7
  EXPECT_EQ(c.sweep(), 0u);
  EXPECT_EQ(out.counts[3], 7);  // copied once, when it arrived
  EXPECT_EQ(out.counts[9], 9);
  EXPECT_EQ(out.nonfinite[5], 1);
  EXPECT_EQ(out.pixel_steps, 7 + (45 - 3));
  EXPECT_EQ(out.nonfinite_pixels, 1);
  EXPECT_EQ(c.pixels_done(), 10);
}

TEST(ResultCollector, FinishNamesAPixelNeverComputed) {
  std::vector<std::int32_t> words = {1, 2, kNotYet, 4};
  DivergenceCounts out = sized(words.size());
  ResultCollector c(words.data(), out);
  try {
    c.finish();
    FAIL() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("pixel 2 of 4"), std::string::npos) << e.what();
  }
}

TEST(ResultCollector, BoundedSweepsLookAtMostThatManyAndTakeTurns) {
  std::vector<std::int32_t> words(100, kNotYet);
  DivergenceCounts out = sized(words.size());
  ResultCollector c(words.data(), out);
  EXPECT_EQ(c.sweep(10), 100u);  // the first sweep looks at every pixel
  for (int i = 50; i < 100; ++i) words[i] = i;
  std::size_t left = 100;
  int sweeps = 0;
  while (left > 50) {
    const std::int64_t before = c.pixels_done();
    left = c.sweep(10);
    EXPECT_LE(c.pixels_done() - before, 10);
    ++sweeps;
  }
  // Each look takes a pixel or passes over an unfinished one: 100 looks for the first round.
  EXPECT_EQ(sweeps, 10);
  EXPECT_EQ(c.pixels_done(), 50);
  for (int i = 50; i < 100; ++i) EXPECT_EQ(out.counts[i], i);
  EXPECT_EQ(out.pixel_steps, (50 + 99) * 50 / 2);
  words[7] = 3;  // one more, found within a round (50 looks)
  for (int i = 0; i < 5; ++i) left = c.sweep(10);
  EXPECT_EQ(left, 49u);
  EXPECT_EQ(out.counts[7], 3);
  // Midway through a round, the last sweep still finds what is left, and names the first.
  c.sweep(17);
  try {
    c.finish();
    FAIL() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("pixel 0 of 100"), std::string::npos) << e.what();
  }
}

// Runs job(i) for i < n on threads of its own.
void run_on_threads(std::size_t n, const std::function<void(std::size_t)>& job) {
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < n; ++i) threads.emplace_back(job, i);
  for (auto& t : threads) t.join();
}

TEST(ResultCollector, FinishInSlicesCopiesAsOneSweepDoes) {
  constexpr std::size_t n = 100000;
  std::vector<std::int32_t> words(n, kNotYet);
  DivergenceCounts one = sized(n), sliced = sized(n);
  ResultCollector a(words.data(), one), b(words.data(), sliced);
  a.sweep();
  b.sweep();
  for (std::size_t i = 0; i < n; ++i)
    words[i] = result_word(static_cast<std::int32_t>(i % 5000), i % 7 == 0);
  a.finish();
  std::size_t slices = 0;
  b.finish(5, [&](std::size_t parts, const std::function<void(std::size_t)>& job) {
    slices = parts;
    run_on_threads(parts, job);
  });
  EXPECT_EQ(slices, 5u);
  EXPECT_EQ(sliced.counts, one.counts);
  EXPECT_EQ(sliced.nonfinite, one.nonfinite);
  EXPECT_EQ(sliced.pixel_steps, one.pixel_steps);
  EXPECT_EQ(sliced.nonfinite_pixels, one.nonfinite_pixels);
  EXPECT_EQ(b.pixels_done(), static_cast<std::int64_t>(n));
}

TEST(ResultCollector, FinishInSlicesNamesTheFirstPixelNeverComputed) {
  constexpr std::size_t n = 100000;
  std::vector<std::int32_t> words(n, kNotYet);
  DivergenceCounts out = sized(n);
  ResultCollector c(words.data(), out);
  c.sweep();
  for (std::size_t i = 0; i < n; ++i)
    if (i != 77777 && i != 91000) words[i] = 2;
  std::size_t slices = 0;
  try {
    c.finish(4, [&](std::size_t parts, const std::function<void(std::size_t)>& job) {
      slices = parts;
      run_on_threads(parts, job);
    });
    FAIL() << "no error";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("pixel 77777 of 100000"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slices, 4u);
  EXPECT_EQ(c.pixels_done(), static_cast<std::int64_t>(n - 2));
}

class ResultCollectorSweeps : public ::testing::TestWithParam<std::size_t> {};

TEST_P(ResultCollectorSweeps, SweepingWhileAnotherThreadWritesLosesNothing) {
  constexpr std::size_t n = 200000;
  std::vector<std::int32_t> words(n, kNotYet);
  DivergenceCounts out = sized(n);
  ResultCollector c(words.data(), out);
  std::atomic<bool> written{false};
  std::thread writer([&] {
    for (std::size_t i = 0; i < n; ++i)  // an order unlike the sweep's
      std::atomic_ref<std::int32_t>(words[(i * 7919) % n])
          .store(result_word(static_cast<std::int32_t>((i * 7919) % n), i % 3 == 0),
                 std::memory_order_relaxed);
    written = true;
  });
  while (!written) c.sweep(GetParam());
  writer.join();
  c.finish(3, run_on_threads);
  std::int64_t steps = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.counts[i], static_cast<std::int32_t>(i));
    steps += static_cast<std::int64_t>(i);
  }
  EXPECT_EQ(out.pixel_steps, steps);
  EXPECT_EQ(out.nonfinite_pixels, static_cast<std::int64_t>((n + 2) / 3));
}

// Every pixel at each sweep, and a few thousand at a time.
INSTANTIATE_TEST_SUITE_P(ResultCollector, ResultCollectorSweeps, ::testing::Values(0u, 4099u));

}  // namespace
}  // namespace orrery
