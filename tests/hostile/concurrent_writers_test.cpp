// SPDX-License-Identifier: MIT
// Two processes write the same new output, neither with --overwrite: both found the name free
// when they checked, so the one that finishes second must not replace the first one's file.
// Before, both exited 0 and the later result silently replaced the earlier (issue 32). The
// order is made certain, not hoped for: the slow writer A is stopped (SIGSTOP) once it is seen
// to be working, so past its checks, the fast writer B runs to its end, and A is let go.
#include <gtest/gtest.h>
#include <pty.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "../cli/spawn_cli.hpp"
#include "hostile_commands.hpp"

namespace orrery {
namespace {

namespace fs = std::filesystem;

// Starts `orrery args...` in `cwd` on a terminal of its own (so that it draws its progress
// line), with the terminal's other end in *terminal.
pid_t spawn_on_terminal(const std::vector<std::string>& args, const fs::path& cwd,
                        int* terminal) {
  const pid_t pid = ::forkpty(terminal, nullptr, nullptr, nullptr);
  if (pid != 0) return pid;
  if (::chdir(cwd.c_str()) != 0) ::_exit(126);
  std::vector<char*> argv{const_cast<char*>(ORRERY_CLI_PATH)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(ORRERY_CLI_PATH, argv.data());
  ::_exit(127);
}

// Reads the terminal until its progress line says some but not all the work is done: the
// process is then past every check and computing. False if it ended first.
bool working(int terminal) {
  static const std::regex part(R"((\d+)/(\d+))");
  std::string seen;
  char buf[256];
  for (ssize_t n; (n = ::read(terminal, buf, sizeof buf)) > 0;) {
    seen.append(buf, static_cast<std::size_t>(n));
    for (std::sregex_iterator m(seen.begin(), seen.end(), part), end; m != end; ++m)
      if (std::stoll((*m)[1]) < std::stoll((*m)[2])) return true;
  }
  return false;
}

// The processor time a process has used, in seconds (utime + stime of /proc/PID/stat).
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');  // the name may hold spaces; the fields follow it
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  double ticks = 0;
  for (int k = 3; k <= 15 && fields >> field; ++k)
    if (k == 14 || k == 15) ticks += std::stod(field);
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// For a command that draws no progress: it is past its checks once it has computed for longer
// than any check takes (the checks and reading the input take milliseconds). False if it ended.
bool computing(pid_t pid, double seconds) {
  while (cpu_seconds(pid) < seconds) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// One output written by two processes at once. `slow` takes long enough to be stopped while it
// works; `fast` writes the same outputs and ends.
struct Race {
  std::string name;
  std::vector<std::string> slow, fast;
  std::vector<std::string> outputs;  // the files both write
  bool needs_ffmpeg = false;
  std::function<void(const fs::path&)> prepare = nullptr;
  // Seconds of processor time after which `slow` is surely working, for a command without a
  // progress line (0: read its progress line).
  double working_after = 0;
};

// Bodies for `forces` to work on for a second or two of one core (4000² pairs, 100 times).
void many_bodies(const fs::path& d) {
  std::string csv = "m,x,y,z,vx,vy,vz\n";
  for (int i = 0; i < 4000; ++i)
    csv += "1," + std::to_string(i % 20) + "," + std::to_string(i / 20 % 20) + "," +
           std::to_string(i / 400) + ",0,0,0\n";
  test::write_text(d / "many.csv", csv);
  test::make_small_particles(d);
}

std::ostream& operator<<(std::ostream& os, const Race& r) { return os << r.name; }

// The slow writers compute for about half a second of one core: long enough to be seen working
// (the first progress report comes after 250 ms), short enough for a test.
const std::vector<std::string> kMap = {"map", "--steps", "100000", "--backend", "cpu",
                                       "--threads", "1", "--out", "race.png", "--data",
                                       "race.h5"};
const std::vector<std::string> kZoom = {"zoom", "--steps", "100000", "--frames", "2",
                                        "--backend", "cpu", "--threads", "1", "--out",
                                        "race.mp4"};

const std::vector<Race>& races() {
  static const std::vector<Race> rows = {
      {"map_out_and_data", test::with(kMap, {"--resolution", "48"}),
       test::with(kMap, {"--resolution", "8", "--steps", "100", "--quiet"}),
       {"race.png", "race.h5"}},
      {"zoom_movie", test::with(kZoom, {"--resolution", "32", "--frames-dir", "a"}),
       test::with(kZoom, {"--resolution", "8", "--frames-dir", "b", "--steps", "100", "--quiet"}),
       {"race.mp4"}, true},
      {"forces_out",
       {"forces", "--input", "many.csv", "--repeat", "100", "--threads", "1", "--backend", "cpu",
        "--quiet", "--out", "race.h5"},
       {"forces", "--input", "bodies.csv", "--backend", "cpu", "--quiet", "--out", "race.h5"},
       {"race.h5"}, false, many_bodies, 0.3},
  };
  return rows;
}

class HostileConcurrentWriters : public ::testing::TestWithParam<Race> {};

TEST_P(HostileConcurrentWriters, TheFirstFileStaysAndTheSecondWriterSaysSo) {
  const Race& race = GetParam();
  if (race.needs_ffmpeg && std::system("command -v ffmpeg > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no ffmpeg: no movie to race for";
  test::TempDir dir;
  if (race.prepare) race.prepare(dir.path());
  int terminal = -1;
  const pid_t slow = spawn_on_terminal(race.slow, dir.path(), &terminal);
  ASSERT_GT(slow, 0);
  ASSERT_TRUE(race.working_after > 0 ? computing(slow, race.working_after) : working(terminal))
      << "the slow writer ended before it was seen working";
  ::kill(slow, SIGSTOP);
  const test::CliResult fast = test::run_cli(race.fast, dir.path());
  ASSERT_EQ(fast.status, 0) << fast.err;
  std::vector<std::string> first;
  for (const auto& out : race.outputs) first.push_back(test::read_bytes(dir / out));
  ::kill(slow, SIGCONT);
  std::string said;
  char buf[256];
  for (ssize_t n; (n = ::read(terminal, buf, sizeof buf)) > 0;) said.append(buf, n);
  ::close(terminal);
  EXPECT_EQ(test::wait_cli(slow), 1) << said;
  EXPECT_NE(said.find("another process made it while this one worked"), std::string::npos)
      << said;
  for (std::size_t i = 0; i < race.outputs.size(); ++i)
    EXPECT_EQ(test::read_bytes(dir / race.outputs[i]), first[i]) << race.outputs[i] << " replaced";
  for (const auto& name : test::listing(dir.path()))
    EXPECT_NE(name.front(), '.') << "a hidden file left behind: " << name;
}

INSTANTIATE_TEST_SUITE_P(EveryOutput, HostileConcurrentWriters, ::testing::ValuesIn(races()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace orrery
