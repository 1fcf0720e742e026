// SPDX-License-Identifier: MIT
// Under `ulimit -f`, a write past the limit fails (EFBIG): each command says which file it could
// not write and why, exits 1, and leaves no hidden temporary behind. Before, SIGXFSZ killed
// the process without a word (status 153) and its `.NAME.tmp-...` files stayed (issue 32).
#include <gtest/gtest.h>

#include <string>

#include "hostile_commands.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

struct TooLarge {
  std::string name;
  std::function<void(const fs::path&)> prepare;
  std::vector<std::string> args;
  std::string file;  // the file the message names
};

std::ostream& operator<<(std::ostream& os, const TooLarge& c) { return os << c.name; }

// 2000 bodies on a line: forces for them fill 2000 x 5 doubles, far past the limit.
void many_particles(const fs::path& d) {
  std::string csv = "m,x,y,z,vx,vy,vz\n";
  for (int i = 0; i < 2000; ++i) csv += "1," + std::to_string(i) + ",0,0,0,0,0\n";
  test::write_text(d / "many.csv", csv);
}

const std::vector<TooLarge>& cases() {
  static const std::vector<TooLarge> rows = {
      {"map_data", nullptr,
       {"map", "--resolution", "200", "--steps", "10", "--backend", "cpu", "--quiet", "--out",
        "p.png", "--data", "p.h5"},
       "p.h5"},
      {"forces_out", many_particles,
       {"forces", "--input", "many.csv", "--backend", "cpu", "--quiet", "--out", "f.h5"}, "f.h5"},
  };
  return rows;
}

class HostileFileSizeLimit : public ::testing::TestWithParam<TooLarge> {};

TEST_P(HostileFileSizeLimit, SaysFileTooLargeAndLeavesNothing) {
  const TooLarge& c = GetParam();
  test::TempDir dir;
  if (c.prepare) c.prepare(dir.path());
  const auto before = test::listing(dir.path());
  // 16 blocks: 8 KiB (dash) or 16 KiB (bash), below every file the rows write.
  const test::CliResult r = test::run_cli(c.args, dir.path(), "ulimit -f 16 &&");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("cannot write '" + c.file + "': File too large"), std::string::npos)
      << r.err;
  EXPECT_EQ(test::listing(dir.path()), before);
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, HostileFileSizeLimit, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace orrery
