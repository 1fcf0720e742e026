// SPDX-License-Identifier: MIT
// The orrery program started in the background, to be signalled (killed, interrupted) while it
// runs, and the files of runs compared byte for byte.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "../temp_dir.hpp"

namespace orrery::test {

// Starts `orrery args...` in `cwd` with stdout and stderr to the files `out` and `err` there.
inline pid_t spawn_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                       const std::string& out = ".spawn-out", const std::string& err = ".spawn-err") {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (::chdir(cwd.c_str()) != 0) ::_exit(126);
  const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::dup2(o, STDOUT_FILENO);
  ::dup2(e, STDERR_FILENO);
  std::vector<char*> argv{const_cast<char*>(ORRERY_CLI_PATH)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(ORRERY_CLI_PATH, argv.data());
  ::_exit(127);
}

// The exit status, or 128 + the signal that ended it.
inline int wait_cli(pid_t pid) {
  int raw = 0;
  while (::waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

// Whether the process has ended (reaping it; its status in *status).
inline bool ended(pid_t pid, int* status) {
  int raw = 0;
  if (::waitpid(pid, &raw, WNOHANG) != pid) return false;
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return true;
}

// Waits (up to `limit`) until `path` exists; false if it never did.
inline bool wait_for(const std::filesystem::path& path,
                     std::chrono::milliseconds limit = std::chrono::seconds(60)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The snapshot and checkpoint files and the diagnostics table of a run (not those set aside as
// damaged), by name, with their bytes.
inline std::map<std::string, std::string> run_outputs(const std::filesystem::path& run) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(run)) {
    const std::string name = entry.path().filename().string();
    const bool h5 = name.size() > 3 && name.compare(name.size() - 3, 3, ".h5") == 0;
    if (h5 && (name.rfind("snapshot_", 0) == 0 || name.rfind("checkpoint_", 0) == 0 ||
               name == "diagnostics.h5"))
      files[name] = read_bytes(entry.path());
  }
  return files;
}

}  // namespace orrery::test
