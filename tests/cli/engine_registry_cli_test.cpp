// SPDX-License-Identifier: MIT
// The force-engine registry (nbody/engine_registry.hpp) as the commands read it: `sim --list`
// shows the registry's lines, `forces` reports interactions per second for the engines the
// registry says sum every pair, --accuracy is taken by the engines it says open cells by θ,
// and θ's one range refuses a bad --theta in every command that takes one, before any work.
// Each of these would fail if a command kept its own list, flag or range again.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/nbody/engine_registry.hpp"
#include "run_cli.hpp"

namespace orrery {
namespace {

using test::run_cli;

void write_bodies(const std::filesystem::path& dir) {
  test::write_text(dir / "bodies.csv",
                   "m,x,y,z,vx,vy,vz\n1,0,0,0,0,0.5,0\n1,1,0,0,0,-0.5,0\n1,0,2,0,0.3,0,0\n");
}

TEST(EngineRegistryCli, SimListShowsTheRegistrysEngines) {
  test::TempDir dir;
  const auto r = run_cli({"sim", "--list"}, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(force_engines_text()), std::string::npos)
      << "the registry's lines:\n" << force_engines_text() << "not in:\n" << r.out;
}

TEST(EngineRegistryCli, ForcesCountsInteractionsForTheEnginesThatSumEveryPair) {
  test::TempDir dir;
  write_bodies(dir.path());
  for (const ForceEngineInfo& e : force_engines()) {
    SCOPED_TRACE(std::string(e.name));
    const std::string out = std::string(e.name) + ".h5";
    const auto r = run_cli({"forces", "--input", "bodies.csv", "--engine", std::string(e.name),
                            "--backend", "cpu", "--out", out},
                           dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("interactions/s") != std::string::npos, e.all_pairs) << r.out;
  }
}

TEST(EngineRegistryCli, AccuracyIsTakenByTheEnginesThatOpenCells) {
  test::TempDir dir;
  write_bodies(dir.path());
  std::vector<std::string> opening;
  for (const ForceEngineInfo& e : force_engines())
    if (e.opening_angle) opening.emplace_back(e.name);
  ASSERT_FALSE(opening.empty());
  for (const ForceEngineInfo& e : force_engines()) {
    SCOPED_TRACE(std::string(e.name));
    const std::string out = std::string(e.name) + ".h5";
    const auto r = run_cli({"forces", "--input", "bodies.csv", "--engine", std::string(e.name),
                            "--accuracy", "1e-3", "--backend", "cpu", "--out", out},
                           dir.path());
    if (e.opening_angle) {
      EXPECT_EQ(r.status, 0) << r.err;
    } else {
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_NE(r.err.find("with --engine " + opening.front()), std::string::npos) << r.err;
      EXPECT_FALSE(std::filesystem::exists(dir / out));
    }
  }
}

// Each command's words up to --theta, with tiny work; "{out}" is a file the command would
// write, which must not appear.
const std::map<std::string, std::vector<std::string>>& theta_commands() {
  static const std::map<std::string, std::vector<std::string>> rows = {
      {"sim", {"sim", "--scene", "kepler", "--t-end", "0.1", "--backend", "cpu", "--out", "{out}"}},
      {"forces", {"forces", "--input", "bodies.csv", "--backend", "cpu", "--out", "{out}"}},
      {"view",
       {"view", "--scene", "kepler", "--exit-after-frames", "1", "--screenshot", "{out}"}},
  };
  return rows;
}

// The commands, as orrery names them when a word is none of them.
std::vector<std::string> every_command(const std::filesystem::path& dir) {
  const auto r = run_cli({"bogus"}, dir);
  const std::string from = "expected one of: ";
  const auto at = r.err.find(from);
  EXPECT_NE(at, std::string::npos) << r.err;
  if (at == std::string::npos) return {};
  std::istringstream list(r.err.substr(at + from.size(), r.err.find(';', at) - at - from.size()));
  std::vector<std::string> names;
  for (std::string name; std::getline(list >> std::ws, name, ',');) names.push_back(name);
  return names;
}

TEST(EngineRegistryCli, EveryCommandTakingThetaRefusesItOutsideTheOneRangeBeforeWork) {
  test::TempDir dir;
  write_bodies(dir.path());
  const std::vector<std::string> commands = every_command(dir.path());
  ASSERT_GE(commands.size(), 8u);
  std::vector<std::string> taking;
  for (const std::string& command : commands) {
    const auto help = run_cli({command, "--help"}, dir.path());
    ASSERT_EQ(help.status, 0) << command;
    if (help.out.find("--theta") != std::string::npos) taking.push_back(command);
  }
  std::vector<std::string> known;
  for (const auto& [command, words] : theta_commands()) known.push_back(command);
  std::sort(taking.begin(), taking.end());
  ASSERT_EQ(taking, known) << "a command takes --theta: give it a row in theta_commands()";
  for (const auto& [command, words] : theta_commands()) {
    for (const std::string theta : {"2", "-0.5", "nan"}) {
      SCOPED_TRACE(command + " --theta " + theta);
      std::vector<std::string> args = words;
      std::replace(args.begin(), args.end(), std::string("{out}"), std::string("made.out"));
      args.insert(args.end(), {"--engine", "tree", "--theta", theta});
      const auto r = run_cli(args, dir.path());
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_NE(r.err.find("--theta: " + theta + " is not accepted"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(theta_range_text()), std::string::npos) << r.err;
      EXPECT_FALSE(std::filesystem::exists(dir / "made.out"));
    }
  }
}

}  // namespace
}  // namespace orrery
