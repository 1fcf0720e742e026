// SPDX-License-Identifier: MIT
// How many threads CPU work gets: capped at the CPUs of the affinity mask (tested by narrowing
// a thread's mask to one CPU, as `taskset -c` does, which needs no privilege) and at what the
// work can keep busy; and one thread runs with no parallel region at all.
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "cli/run_cli.hpp"
#include "device/cpu/on_threads.hpp"
#include "orrery/device/cpu/cpu_threads.hpp"

namespace orrery {
namespace {

int mask_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  return CPU_COUNT(&set);
}

// Runs f on a thread whose affinity mask holds only the first CPU of this process's mask;
// programs it starts inherit that mask.
void on_one_cpu(const std::function<void()>& f) {
  std::thread t([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    int first = 0;
    while (!CPU_ISSET(first, &set)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    f();
  });
  t.join();
}

TEST(CpuThreads, AffinityCountIsTheMasksCount) {
  EXPECT_EQ(affinity_cpu_count(), mask_count());
  on_one_cpu([] { EXPECT_EQ(affinity_cpu_count(), 1); });
}

TEST(CpuThreads, CappedAtTheCpusTheProcessMayUse) {
  const int cpus = affinity_cpu_count();
  EXPECT_EQ(cpu_thread_count(4096), cpus);
  EXPECT_LE(cpu_thread_count(0), cpus);
  EXPECT_GE(cpu_thread_count(0), 1);
  EXPECT_EQ(cpu_threads_note(cpus), "");
  on_one_cpu([] {
    EXPECT_EQ(cpu_thread_count(4096), 1);
    EXPECT_EQ(cpu_thread_count(0), 1);
    EXPECT_EQ(cpu_threads_note(4096),
              "4096 threads asked for; this process may use 1 CPU (its affinity mask), so at "
              "most 1 run");
  });
}

TEST(CpuThreads, CappedAtWhatTheWorkCanUse) {
  const int cpus = affinity_cpu_count();
  EXPECT_EQ(cpu_thread_count(4096, 9, 16384), 1);  // three bodies' pairs
  EXPECT_EQ(cpu_thread_count(4096, 0, 16384), 1);
  EXPECT_EQ(cpu_thread_count(4096, 2 * 16384 - 1, 16384), 1);
  EXPECT_EQ(cpu_thread_count(4096, 2 * 16384, 16384), std::min(2, cpus));
  EXPECT_EQ(cpu_thread_count(1, 1'000'000'000, 1), 1);
  EXPECT_EQ(cpu_thread_count(4096, 5, 0), std::min(5, cpus));  // grain 0 counts as 1
}

TEST(CpuThreads, OneThreadRunsWithNoParallelRegion) {
  const auto caller = std::this_thread::get_id();
  int calls = 0;
  on_threads(1, [&](std::size_t t, std::size_t threads) {
    ++calls;
    EXPECT_EQ(t, 0u);
    EXPECT_EQ(threads, 1u);
    EXPECT_EQ(omp_get_level(), 0) << "a parallel region was opened";
    EXPECT_EQ(std::this_thread::get_id(), caller);
  });
  EXPECT_EQ(calls, 1);
  if (affinity_cpu_count() < 2) GTEST_SKIP() << "one CPU: no second thread to check";
  std::atomic<int> level{-1};
  on_threads(2, [&](std::size_t, std::size_t threads) {
    EXPECT_EQ(threads, 2u);
    level = omp_get_level();
  });
  EXPECT_EQ(level.load(), 1);
}

TEST(CpuThreads, MapReportsThreadsCappedWithANote) {
  on_one_cpu([] {
    test::TempDir dir;
    const auto r = test::run_cli({"map", "--width", "8", "--height", "8", "--steps", "100",
                                  "--out", "m.png", "--backend", "cpu", "--threads", "64"},
                                 dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(", 1 threads)"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("note: 64 threads asked for; this process may use 1 CPU"),
              std::string::npos)
        << r.err;
  });
}

}  // namespace
}  // namespace orrery
