// SPDX-License-Identifier: MIT
#include "orrery/io/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <string>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

std::filesystem::path lock_path(const std::filesystem::path& folder) {
  return folder / kLockFileName;
}

// Opens `path` as a lock file: never through a symbolic link, never a pipe (O_NONBLOCK: opening
// one would wait for a writer), and only a regular file with one name (a hard link would share
// its bytes with a file elsewhere).
int open_lock_file(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) return -errno;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    ::close(fd);
    return -EPERM;
  }
  return fd;
}

// Whether `text` is what a lock holds: nothing yet, or one holder's line as written below.
bool is_holder_text(const std::string& text) {
  if (text.empty()) return true;
  return text.rfind("pid ", 0) == 0 && text.find(" on host ") != std::string::npos &&
         text.find('\n') == text.size() - 1;
}

std::string holder_text(int fd) {
  char buf[512] = {0};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s.empty() ? "a process that has not yet written its name" : s;
}

std::string my_description() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char when[64] = {0};
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return fmt::format("pid {} on host {}, started {}\n", ::getpid(), host, when);
}

}  // namespace

RunLock::RunLock(const std::filesystem::path& folder) {
  const auto path = lock_path(folder);
  const int fd = open_lock_file(path, O_RDWR | O_CREAT);
  if (fd == -ELOOP || fd == -EPERM || fd == -EISDIR || fd == -ENXIO)
    throw InputError(fmt::format("'{}' is not orrery's lock file ({}); it is left as it is: move "
                                 "it away to let orrery take the folder",
                                 shown_text(path.string(), 400),
                                 fd == -ELOOP ? "a symbolic link"
                                              : "not a regular file with one name"));
  if (fd < 0)
    throw RunError(fmt::format("cannot open the lock of the run '{}': {}", folder.string(),
                               std::strerror(-fd)));
  fd_ = fd;
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = error == EWOULDBLOCK ? holder_text(fd_) : std::strerror(error);
    ::close(fd_);
    fd_ = -1;
    throw RunError(fmt::format("the run '{}' is in use by another orrery ({}); one run has one "
                               "writer at a time",
                               folder.string(), holder));
  }
  // Read under the lock, so that a holder's line being written is not taken for other data.
  char before[512];
  const ssize_t got = ::pread(fd_, before, sizeof before, 0);
  if (got < 0 || !is_holder_text(std::string(before, static_cast<std::size_t>(got)))) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(fmt::format("'{}' is not orrery's lock file (it holds other data); it is "
                                 "left as it is: move it away to let orrery take the folder",
                                 shown_text(path.string(), 400)));
  }
  const std::string me = my_description();
  // Best effort: the lock holds whether or not its holder's name could be written.
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t n = ::pwrite(fd_, me.data(), me.size(), 0);
  }
}

RunLock& RunLock::operator=(RunLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

bool RunLock::held(const std::filesystem::path& folder) {
  const int fd = open_lock_file(lock_path(folder), O_RDONLY);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return busy;
}

}  // namespace orrery
