// SPDX-License-Identifier: MIT
// Under `ulimit -f`, a write past the limit fails (EFBIG): each command says which file it could
// not write and why, exits 1, and leaves no hidden temporary behind; and the temporaries a
// killed writer left are removed by the next writer. Before, SIGXFSZ killed the process
// without a word (status 153) and its `.NAME.tmp-...` files stayed (issue 32).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "hostile_commands.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

struct TooLarge {
  std::string name;
  std::function<void(const fs::path&)> prepare;
  std::vector<std::string> args;
  std::string file;  // the file it makes (without the limit), which the message names
  // What a writer killed while writing leaves ("{pid}" its pid; a trailing / a folder): by
  // default `.FILE.tmp-{pid}-0` beside the file.
  std::string left = "";
  std::string said = "";  // the end of the name the message gives, where not `file`
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
      // 2000 bodies' snapshot: 2000 x 8 doubles and ids.
      {"sim_out", nullptr,
       {"sim", "--scene", "plummer", "--n", "2000", "--t-end", "0.01", "--dt", "0.01",
        "--backend", "cpu", "--quiet", "--out", "r"},
       "r/snapshot_000000.h5", ".r.tmp-{pid}-0/", "/snapshot_000000.h5"},
      {"plot_out", [](const fs::path& d) { test::make_small_run(d); },
       {"plot", "run", "--out", "p"}, "p-energy.png"},
      // A frame's counts: 200 x 200 int32. The folders are the user's, made before.
      {"zoom_data",
       [](const fs::path& d) {
         fs::create_directories(d / "frames");
         fs::create_directories(d / "data");
       },
       {"zoom", "--resolution", "200", "--steps", "10", "--frames", "2", "--backend", "cpu",
        "--quiet", "--frames-dir", "frames", "--data-dir", "data", "--out", "z.mp4"},
       "data/frame_000000.h5"},
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
  EXPECT_EQ(r.err.find("cannot write '"), r.err.find(": error: ") + 9) << r.err;
  EXPECT_NE(r.err.find((c.said.empty() ? c.file : c.said) + "': File too large"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(test::listing(dir.path()), before);
  for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
        << "left behind: " << entry.path();
}

// A pid no process has now: a child that has ended.
pid_t ended_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

// What a writer killed by SIGXFSZ left before orrery ignored it, `.FILE.tmp-PID-0` two hours
// old, is removed by the next process writing FILE (and nothing else is).
TEST_P(HostileFileSizeLimit, TheNextWriterRemovesAKilledWritersTemporary) {
  const TooLarge& c = GetParam();
  test::TempDir dir;
  if (c.prepare) c.prepare(dir.path());
  const fs::path target = dir / c.file;
  std::string left_name = c.left.empty()
                              ? (target.parent_path() / ("." + target.filename().string() +
                                                         ".tmp-{pid}-0"))
                                    .string()
                              : (dir / c.left).string();
  left_name.replace(left_name.find("{pid}"), 5, std::to_string(ended_pid()));
  fs::path left = left_name;
  if (left_name.back() == '/') {  // a new run's working folder, with its first snapshot begun
    left = left_name.substr(0, left_name.size() - 1);
    fs::create_directories(left);
    test::write_text(left / "snapshot_000000.h5", "what a killed writer left");
  } else {
    fs::create_directories(left.parent_path());
    test::write_text(left, "what a killed writer left");
  }
  fs::last_write_time(left, fs::file_time_type::clock::now() - std::chrono::hours(2));
  const test::CliResult r = test::run_cli(c.args, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(target)) << c.file;
  EXPECT_FALSE(fs::exists(left)) << left.filename() << " left";
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, HostileFileSizeLimit, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace orrery
