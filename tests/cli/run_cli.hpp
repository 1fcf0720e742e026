// SPDX-License-Identifier: MIT
// Runs the orrery program as a user would and captures what it says.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "../temp_dir.hpp"

namespace orrery::test {

struct CliResult {
  int status = -1;
  std::string out, err;
};

// `prefix` runs the program under another (e.g. "xvfb-run -a").
inline CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                         const std::string& prefix = "") {
  std::string cmd = "cd '" + cwd.string() + "' && " + prefix + " '" ORRERY_CLI_PATH "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " > .stdout 2> .stderr";
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_text(cwd / ".stdout");
  r.err = read_text(cwd / ".stderr");
  std::filesystem::remove(cwd / ".stdout");
  std::filesystem::remove(cwd / ".stderr");
  return r;
}

}  // namespace orrery::test
