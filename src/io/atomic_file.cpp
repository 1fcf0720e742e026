// SPDX-License-Identifier: MIT
#include "orrery/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : "."; }

[[noreturn]] void fail_errno(const std::string& what, int error) {
  throw RunError(fmt::format("{}: {}", what, std::strerror(error)));
}

void sync_file(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail_errno(fmt::format("cannot open '{}' to sync it", path.string()), errno);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) fail_errno(fmt::format("cannot write '{}'", path.string()), error);
}

}  // namespace

AtomicOutput::AtomicOutput(fs::path target) : target_(std::move(target)) {
  static std::atomic<int> serial{0};
  temporary_ = folder_of(target_) / fmt::format(".{}.tmp-{}-{}", target_.filename().string(),
                                                ::getpid(), serial.fetch_add(1));
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    std::error_code ec;
    fs::remove(temporary_, ec);
  }
}

void AtomicOutput::commit() {
  sync_file(temporary_);
  std::error_code ec;
  fs::rename(temporary_, target_, ec);
  if (ec)
    throw RunError(fmt::format("cannot move the finished '{}' to '{}': {}", temporary_.string(),
                               target_.string(), ec.message()));
  committed_ = true;
  sync_directory(folder_of(target_));
}

void write_file_atomically(const fs::path& target, std::span<const std::uint8_t> bytes) {
  AtomicOutput out(target);
  const int fd = ::open(out.temporary().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail_errno(fmt::format("cannot create '{}'", out.temporary().string()), errno);
  std::size_t done = 0;
  int error = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) fail_errno(fmt::format("cannot write '{}'", target.string()), error);
  out.commit();
}

void sync_directory(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_errno(fmt::format("cannot open the folder '{}'", folder.string()), errno);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  // Some filesystems do not sync folders (EINVAL); their renames are as durable as they get.
  if (rc != 0 && error != EINVAL)
    fail_errno(fmt::format("cannot sync the folder '{}'", folder.string()), error);
}

bool is_atomic_temporary(const std::string& name) {
  return name.size() > 1 && name.front() == '.' && name.find(".tmp-") != std::string::npos;
}

void check_output_path(std::string_view parameter, const fs::path& path) {
  const std::string value = path.string();
  if (value.empty()) throw ParameterError(std::string(parameter), value, "a file path");
  const fs::path folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw ParameterError(std::string(parameter), value,
                         fmt::format("a path in an existing folder ('{}' is not one)",
                                     folder.string()));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw ParameterError(std::string(parameter), value,
                         fmt::format("a path in a writable folder ('{}' is not writable)",
                                     folder.string()));
  if (fs::is_directory(path, ec))
    throw ParameterError(std::string(parameter), value, "a file path, not a folder");
}

}  // namespace orrery
