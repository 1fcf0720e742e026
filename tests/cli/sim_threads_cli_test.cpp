// SPDX-License-Identifier: MIT
// A few-body run pays for no threads: no parallel region, so no futex per step (counted with
// strace where it runs; skipped where it is missing or ptrace is not allowed).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "run_cli.hpp"

namespace orrery {
namespace {

// A thousand steps, a snapshot every ten. The startup and the file writes take some futex calls
// of their own (locale, HDF5, libgomp's start); a parallel region per force evaluation or array
// update took four per step, several thousand in all.
constexpr int kSteps = 1000;
constexpr long kFutexCallsAllowed = 200;

TEST(SimThreadsCli, AThreeBodyRunCallsNoFutexPerStep) {
  if (std::system("strace -V > /dev/null 2>&1") != 0) GTEST_SKIP() << "strace is not installed";
  test::TempDir dir;
  const std::string cmd = "cd '" + dir.path().string() +
                          "' && strace -f -c -e trace=futex -o futex.txt '" ORRERY_CLI_PATH
                          "' sim --scene pythagorean --dt 0.001 --t-end 1 --every 10 "
                          "--threads 2 --quiet --out run.h5 > /dev/null 2> err.txt";
  if (std::system(cmd.c_str()) != 0)
    GTEST_SKIP() << "strace could not trace the run (ptrace not allowed?): "
                 << test::read_text(dir / "err.txt");
  const std::string summary = test::read_text(dir / "futex.txt");
  // "% time  seconds  usecs/call  calls  errors syscall", then per call
  // "100.00    0.000123           1        57           futex" (errors may be blank).
  long calls = 0;
  std::istringstream lines(summary);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
    if (w.size() >= 5 && w.back() == "futex") calls = std::stol(w[3]);
  }
  std::cout << "futex calls for " << kSteps << " steps: " << calls << "\n" << summary;
  EXPECT_LT(calls, kFutexCallsAllowed) << summary;
}

}  // namespace
}  // namespace orrery
