// SPDX-License-Identifier: MIT
// The run's file writer thread: jobs in the order posted, a failure stops every later job and
// reaches the run, the destructor finishes what was posted, a full queue makes the run wait.
#include "jobs/background_writer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "orrery/core/error.hpp"

namespace orrery {
namespace {

// How long a post into a full queue is watched for not returning: ample for a post that did not
// wait to have returned (it takes microseconds).
constexpr auto kBlockedPostWatch = std::chrono::milliseconds(50);

TEST(BackgroundWriter, WritesInTheOrderPosted) {
  std::vector<int> done;
  BackgroundWriter w(1);
  for (int k = 0; k < 50; ++k)
    w.post([&done, k] {
      if (k % 7 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      done.push_back(k);
    });
  w.drain();
  ASSERT_EQ(done.size(), 50u);
  for (int k = 0; k < 50; ++k) EXPECT_EQ(done[k], k);
}

TEST(BackgroundWriter, AFailureStopsLaterJobsAndReachesTheRun) {
  std::vector<int> done;
  BackgroundWriter w(4);
  w.post([&] { done.push_back(1); });
  w.post([] { throw RunError("writing snapshot_000002.h5: No space left on device"); });
  // Posted before the writer got to the failure: skipped, not written after it.
  try {
    w.post([&] { done.push_back(3); });
  } catch (const RunError&) {
  }
  EXPECT_THROW(
      {
        try {
          w.drain();
        } catch (const RunError& e) {
          EXPECT_NE(std::string(e.what()).find("No space left"), std::string::npos);
          throw;
        }
      },
      RunError);
  EXPECT_EQ(done, std::vector<int>{1});
  EXPECT_THROW(w.post([&] { done.push_back(4); }), RunError);
  EXPECT_EQ(done, std::vector<int>{1});
}

TEST(BackgroundWriter, TheDestructorFinishesWhatWasPosted) {
  std::atomic<int> done{0};
  {
    BackgroundWriter w(3);
    for (int k = 0; k < 3; ++k)
      w.post([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ++done;
      });
  }
  EXPECT_EQ(done.load(), 3);
}

TEST(BackgroundWriter, WithoutAThreadItWritesAtOnce) {
  std::vector<int> done;
  BackgroundWriter w(0);
  w.post([&] { done.push_back(1); });
  EXPECT_EQ(done, std::vector<int>{1});
  EXPECT_THROW(w.post([] { throw RunError("disk full"); }), RunError);
  EXPECT_THROW(w.post([&] { done.push_back(2); }), RunError);
  EXPECT_EQ(done, std::vector<int>{1});
}

TEST(BackgroundWriter, AFullQueueMakesTheRunWait) {
  std::atomic<bool> release{false};
  std::atomic<int> started{0};
  BackgroundWriter w(1);
  w.post([&] {
    ++started;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (started == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  w.post([] {});  // waits in the queue (one pending allowed)
  std::atomic<bool> third_posted{false};
  std::thread t([&] {
    w.post([] {});
    third_posted = true;
  });
  std::this_thread::sleep_for(kBlockedPostWatch);
  EXPECT_FALSE(third_posted.load());  // the queue is full: the poster waits
  release = true;
  t.join();
  EXPECT_TRUE(third_posted.load());
  w.drain();
}

}  // namespace
}  // namespace orrery
