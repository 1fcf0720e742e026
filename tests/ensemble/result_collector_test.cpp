// SPDX-License-Identifier: MIT
// Collecting results while they are written (plain host code behind the CUDA backend).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "ensemble/result_collector.hpp"
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

TEST(ResultCollector, SweepingWhileAnotherThreadWritesLosesNothing) {
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
  while (!written) c.sweep();
  writer.join();
  c.finish();
  std::int64_t steps = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.counts[i], static_cast<std::int32_t>(i));
    steps += static_cast<std::int64_t>(i);
  }
  EXPECT_EQ(out.pixel_steps, steps);
  EXPECT_EQ(out.nonfinite_pixels, static_cast<std::int64_t>((n + 2) / 3));
}

}  // namespace
}  // namespace orrery
