// SPDX-License-Identifier: MIT
// Threads kept between calls (plain host code behind the CUDA backend's device threads).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "device/cpu/thread_team.hpp"

namespace orrery {
namespace {

TEST(ThreadTeam, RunsEverySlotOnceAndWaitsForAll) {
  ThreadTeam team;
  std::vector<std::atomic<int>> runs(5);
  team.start(5, [&](std::size_t i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5 * static_cast<int>(i)));
    ++runs[i];
  });
  team.wait();  // the slowest job (20 ms) has returned
  for (auto& r : runs) EXPECT_EQ(r.load(), 1);
  EXPECT_EQ(team.size(), 5u);
}

TEST(ThreadTeam, KeepsItsThreadsAndTheirSlotsBetweenRounds) {
  ThreadTeam team;
  std::vector<std::thread::id> first(3), second(3);
  team.start(3, [&](std::size_t i) { first[i] = std::this_thread::get_id(); });
  team.wait();
  // Fewer slots: the rest sit the round out; more: threads are added.
  team.start(2, [&](std::size_t i) { second[i] = std::this_thread::get_id(); });
  team.wait();
  EXPECT_EQ(second[0], first[0]);
  EXPECT_EQ(second[1], first[1]);
  EXPECT_EQ(second[2], std::thread::id{});
  std::vector<std::thread::id> third(4);
  team.start(4, [&](std::size_t i) { third[i] = std::this_thread::get_id(); });
  team.wait();
  EXPECT_EQ(third[2], first[2]);
  EXPECT_NE(third[3], std::thread::id{});
  EXPECT_NE(third[3], first[0]);
  EXPECT_EQ(team.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NE(third[i], std::this_thread::get_id());  // never the caller's thread
}

TEST(ThreadTeam, ManyShortRoundsLoseNoJob) {
  ThreadTeam team;
  std::atomic<int> total{0};
  for (int round = 0; round < 2000; ++round) {
    team.start(1 + round % 4, [&](std::size_t) { ++total; });
    team.wait();
  }
  int expected = 0;
  for (int round = 0; round < 2000; ++round) expected += 1 + round % 4;
  EXPECT_EQ(total.load(), expected);
}

TEST(ThreadTeam, JobsRunWhileTheCallerWorksAndTheDestructorWaitsForThem) {
  std::atomic<bool> release{false};
  std::atomic<int> finished{0};
  {
    ThreadTeam team;
    team.start(2, [&](std::size_t) {
      while (!release) std::this_thread::yield();
      ++finished;
    });
    EXPECT_EQ(finished.load(), 0);  // start() returned while the jobs wait
    release = true;
  }  // destroyed: both jobs returned first
  EXPECT_EQ(finished.load(), 2);
}

}  // namespace
}  // namespace orrery
