// SPDX-License-Identifier: MIT
// One writer per run: an advisory lock (flock) on the run's `lock` file, held for the writer's
// whole life and released by the system when the process ends, however it ends. The holder
// writes its pid, host and start time into the file, so that a refused writer can name it.
//
// The lock is a file of orrery's own: it is opened without following a symbolic link (a link
// would have the holder's name written wherever it points), and a file of that name that is
// not a regular file with one name, or that holds anything but a holder's line, is the user's:
// it is refused, never written.
#pragma once

#include <filesystem>

namespace orrery {

inline constexpr const char* kLockFileName = "lock";

class RunLock {
 public:
  RunLock() = default;
  // Takes the lock of the run in `folder`, or throws RunError naming the process that holds it;
  // InputError for a `lock` there that is not orrery's (a link, a pipe, a file of other text).
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
