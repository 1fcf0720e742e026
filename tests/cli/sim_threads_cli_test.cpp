// SPDX-License-Identifier: MIT
// Threads of `orrery sim`, counted with strace where it runs (skipped where it is missing or
// ptrace is not allowed): a few-body run pays for no threads (no parallel region, so no futex
// per step), and --threads above the CPUs of the affinity mask makes no more threads than that.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/device/cpu/cpu_threads.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

// A thousand steps, a snapshot every ten. The startup and the file writes take some futex calls
// of their own (locale, HDF5, libgomp's start); a parallel region per force evaluation or array
// update took four per step, several thousand in all.
constexpr int kSteps = 1000;
constexpr long kFutexCallsAllowed = 200;

struct Traced {
  bool ran = false;
  std::string why_not;  // when it did not run
  long calls = 0;       // of the traced system calls, all threads
  std::string summary;
};

// `orrery sim ARGS` under `strace -f -c -e trace=CALLS`: the total count of those calls.
Traced traced_sim(const std::string& calls, const std::string& args) {
  Traced t;
  if (std::system("strace -V > /dev/null 2>&1") != 0) {
    t.why_not = "strace is not installed";
    return t;
  }
  test::TempDir dir;
  const std::string cmd = "cd '" + dir.path().string() + "' && strace -f -c -e trace=" + calls +
                          " -o calls.txt '" ORRERY_CLI_PATH "' sim " + args +
                          " --quiet --out run.h5 > /dev/null 2> err.txt";
  if (std::system(cmd.c_str()) != 0) {
    t.why_not = "strace could not trace the run (ptrace not allowed?): " +
                test::read_text(dir / "err.txt");
    return t;
  }
  t.ran = true;
  t.summary = test::read_text(dir / "calls.txt");
  // "% time  seconds  usecs/call  calls  errors syscall", a line per call, then "total".
  std::istringstream lines(t.summary);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
    if (w.size() >= 5 && w.back() == "total") t.calls = std::stol(w[3]);
  }
  return t;
}

TEST(SimThreadsCli, AThreeBodyRunCallsNoFutexPerStep) {
  const Traced t = traced_sim("futex", "--scene pythagorean --dt 0.001 --t-end 1 --every 10 "
                                       "--threads 2");
  if (!t.ran) GTEST_SKIP() << t.why_not;
  std::cout << "futex calls for " << kSteps << " steps: " << t.calls << "\n" << t.summary;
  EXPECT_LT(t.calls, kFutexCallsAllowed) << t.summary;
}

TEST(SimThreadsCli, ThreadsAskedBeyondTheCpusAreNotMade) {
  // 1000 bodies: enough pairs for every CPU of a small machine; 4096 threads asked for.
  const Traced t = traced_sim("clone,clone3", "--scene plummer --n 1000 --dt 0.01 --t-end 0.05 "
                                              "--threads 4096");
  if (!t.ran) GTEST_SKIP() << t.why_not;
  std::cout << "threads made: " << t.calls << "\n" << t.summary;
  // The main thread is not a clone; the others are made twice: once by the start's check that
  // they can be (joined before any work, apps/orrery/main.cpp), once by the work. Made for the
  // 4096 asked, they would be thousands.
  EXPECT_LT(t.calls, 2 * (affinity_cpu_count() - 1) + 1) << t.summary;
}

// Without strace: the run says that it lowered the count, and why.
TEST(SimThreadsCli, ThreadsAskedBeyondTheCpusAreLoweredWithANote) {
  test::TempDir dir;
  const auto r = test::run_cli({"sim", "--scene", "kepler", "--t-end", "0.1", "--threads",
                                "4096", "--out", "run"},
                               dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("orrery sim: note: 4096 threads asked for; this process may use"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace orrery
