// SPDX-License-Identifier: MIT
// The commands of orrery and the files each writes, as the hostile suite (tests/hostile/) tries
// them: every output flag of every command is run against the same hostile cases (an empty
// name, a name too long for the filesystem, a missing folder, a deleted current folder, an
// existing file, an input). A new command, or a new output flag, is one row of
// kCommandOutputs; the cases then run for it too.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../cli/run_cli.hpp"
#include "../temp_dir.hpp"

namespace orrery::test {

// "{dir}" in a row's words stands for the test's folder (absolute), so that a row also runs in
// a current folder that has been deleted.
inline std::vector<std::string> in_folder(std::vector<std::string> args,
                                          const std::filesystem::path& dir) {
  for (std::string& a : args)
    for (std::size_t at; (at = a.find("{dir}")) != std::string::npos;)
      a.replace(at, 5, dir.string());
  return args;
}

// A tiny run of `orrery sim` (kepler, 100 steps, snapshots 000000 to 000005) in `dir`/`name`,
// for the commands that read runs.
inline void make_small_run(const std::filesystem::path& dir, const std::string& name = "run") {
  const CliResult r = run_cli({"sim", "--scene", "kepler", "--t-end", "1", "--dt", "0.01",
                               "--every", "20", "--backend", "cpu", "--quiet", "--out", name},
                              dir);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir / name / "snapshot_000005.h5"));
}

// Two bodies, as a particle file.
inline void make_small_particles(const std::filesystem::path& dir,
                                 const std::string& name = "bodies.csv") {
  write_text(dir / name, "m,x,y,z,vx,vy,vz\n1,0,0,0,0,0.5,0\n1,1,0,0,0,-0.5,0\n");
}

// One output flag of one command.
struct CommandOutput {
  std::string name;               // the test's name: command_flag
  std::vector<std::string> args;  // the command with tiny work, all but the output flag
  std::string flag;               // the output flag
  std::string file;               // a name it takes, in the test's folder
  std::function<void(const std::filesystem::path&)> prepare;  // makes the inputs (or nothing)
  bool refuses_existing = true;   // refuses an existing file without --overwrite (or always)
  std::string written = "";       // the file it writes for `file`, where not `file` itself
};

inline std::ostream& operator<<(std::ostream& os, const CommandOutput& c) { return os << c.name; }

inline const std::vector<CommandOutput>& command_outputs() {
  static const std::vector<CommandOutput> rows = {
      {"map_out", {"map", "--resolution", "8", "--steps", "100", "--backend", "cpu", "--quiet"},
       "--out", "x.png", nullptr},
      {"map_data",
       {"map", "--resolution", "8", "--steps", "100", "--backend", "cpu", "--quiet", "--out",
        "{dir}/m.png"},
       "--data", "x.h5", nullptr},
      {"ensemble_out",
       {"ensemble", "--resolution", "4", "--steps", "10", "--samples", "1", "--backend", "cpu",
        "--quiet"},
       "--out", "x.h5", nullptr},
      {"ensemble_plot",
       {"ensemble", "--resolution", "4", "--steps", "10", "--samples", "1", "--backend", "cpu",
        "--quiet", "--out", "{dir}/e.h5"},
       "--plot", "x.png", nullptr},
      {"ensemble_section_plot",
       {"ensemble", "--resolution", "4", "--steps", "10", "--samples", "1", "--backend", "cpu",
        "--quiet", "--out", "{dir}/e.h5", "--section", "x=0"},
       "--section-plot", "x.png", nullptr},
      {"forces_out", {"forces", "--input", "{dir}/bodies.csv", "--backend", "cpu", "--quiet"},
       "--out", "x.h5", [](const auto& d) { make_small_particles(d); }},
      {"sim_out",
       {"sim", "--scene", "kepler", "--t-end", "0.1", "--dt", "0.01", "--backend", "cpu",
        "--quiet"},
       "--out", "x", nullptr},
      {"render_out", {"render", "{dir}/run", "--width", "16", "--height", "16"}, "--out",
       "x.mp4", [](const auto& d) { make_small_run(d); }},
      {"zoom_out",
       {"zoom", "--resolution", "8", "--steps", "100", "--frames", "2", "--backend", "cpu",
        "--quiet", "--frames-dir", "{dir}/frames"},
       "--out", "x.mp4", nullptr},
      {"view_screenshot", {"view", "--scene", "kepler", "--exit-after-frames", "1"},
       "--screenshot", "x.png", nullptr},
      {"plot_out", {"plot", "{dir}/run"}, "--out", "x", [](const auto& d) { make_small_run(d); },
       true, "x-energy.png"},
  };
  return rows;
}

inline std::vector<std::string> with(std::vector<std::string> args,
                                     const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Runs `orrery args...` with a current folder that was deleted just before (a shell left in a
// removed folder); what it says goes to `dir`.
inline CliResult run_cli_in_deleted_folder(const std::vector<std::string>& args,
                                           const std::filesystem::path& dir) {
  std::string cmd = "cd '" + dir.string() + "' && mkdir gone && cd gone && rmdir '" +
                    (dir / "gone").string() + "' && '" ORRERY_CLI_PATH "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " > '" + (dir / ".stdout").string() + "' 2> '" + (dir / ".stderr").string() + "'";
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_text(dir / ".stdout");
  r.err = read_text(dir / ".stderr");
  std::filesystem::remove(dir / ".stdout");
  std::filesystem::remove(dir / ".stderr");
  return r;
}

// A refusal before any work: status 2 and one line that holds `words`.
inline void expect_refusal(const CliResult& r, const std::string& words) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << "expected '" << words << "' in: " << r.err;
}

}  // namespace orrery::test
