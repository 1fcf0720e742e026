// SPDX-License-Identifier: MIT
// One writer per run: an advisory lock (flock) on the run's `lock` file, held for the writer's
// whole life and released by the system when the process ends, however it ends. The holder
// writes its pid, host and start time into the file, so that a refused writer can name it.
#pragma once

#include <filesystem>

namespace orrery {

class RunLock {
 public:
  RunLock() = default;
  // Takes the lock of the run in `folder`, or throws RunError naming the process that holds it.
  explicit RunLock(const std::filesystem::path& folder);
  RunLock(RunLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  RunLock& operator=(RunLock&& o) noexcept;
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  ~RunLock();

  // Whether the run in `folder` is locked by a living process (false when it has no lock file).
  static bool held(const std::filesystem::path& folder);

 private:
  int fd_ = -1;
};

}  // namespace orrery
