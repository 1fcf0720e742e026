// SPDX-License-Identifier: MIT
// A command refused before any work: `command --out never` followed by each case's arguments
// ends with status 2 and a message naming what is wrong ("--plane"), and `never` is not written.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_cli.hpp"

namespace orrery::test {

struct RefusalCase {
  std::vector<std::string> args;
  const char* says;
};

inline void expect_refused_before_work(const std::vector<std::string>& command,
                                       const std::string& never,
                                       const std::vector<RefusalCase>& cases,
                                       const std::filesystem::path& dir) {
  for (const auto& c : cases) {
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--out", never});
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_cli(args, dir);
    EXPECT_EQ(r.status, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / never)) << c.says;
  }
}

}  // namespace orrery::test
