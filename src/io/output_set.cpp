// SPDX-License-Identifier: MIT
#include "orrery/io/output_set.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

fs::path folder_of(const fs::path& target) {
  return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

fs::path hidden_beside(const fs::path& target, std::string_view kind) {
  static std::atomic<int> serial{0};
  return folder_of(target) / fmt::format(".{}.{}-{}-{}", target.filename().string(), kind, ::getpid(),
                              serial.fetch_add(1));
}

[[noreturn]] void fail_write(const fs::path& target, int error) {
  throw RunError(fmt::format("cannot write '{}': {}", shown_text(target.string(), 400),
                             std::strerror(error)));
}

// Writes the whole of `bytes` to a new file at `path` and flushes it to the disk.
void write_new_file(const fs::path& path, const fs::path& target, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) fail_write(target, errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      fail_write(target, error);
    }
    done += static_cast<std::size_t>(n);
  }
  // Space a filesystem promised may fail only now (NFS, quotas): fsync and close report it.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    fail_write(target, error);
  }
  if (::close(fd) != 0) fail_write(target, errno);
}

}  // namespace

void sync_directory(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    throw RunError(fmt::format("cannot open the folder '{}': {}", folder.string(),
                               std::strerror(errno)));
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  // Some filesystems do not sync folders (EINVAL); their renames are as durable as they get.
  if (rc != 0 && error != EINVAL)
    throw RunError(fmt::format("cannot sync the folder '{}': {}", folder.string(),
                               std::strerror(error)));
}

bool is_output_leftover(const std::string& name) {
  return name.size() > 1 && name.front() == '.' &&
         (name.find(".tmp-") != std::string::npos || name.find(".old-") != std::string::npos);
}

OutputSet::~OutputSet() {
  std::error_code ec;
  for (const Entry& e : entries_) {
    if (!e.renamed) fs::remove(e.temporary, ec);
    if (e.backed_up) fs::remove(e.backup, ec);
  }
}

void OutputSet::add(const fs::path& target, std::string_view bytes) {
  Entry e{target, hidden_beside(target, "tmp"), {}, false, false, false};
  try {
    write_new_file(e.temporary, target, bytes);
  } catch (...) {
    std::error_code ec;
    fs::remove(e.temporary, ec);
    throw;
  }
  entries_.push_back(std::move(e));
}

void OutputSet::restore(std::size_t count, std::string& problems) {
  std::error_code ec;
  for (std::size_t i = count; i-- > 0;) {
    Entry& e = entries_[i];
    if (!e.renamed) continue;
    if (e.backed_up) {
      fs::rename(e.backup, e.target, ec);
      if (!ec) e.backed_up = false;
    } else if (!e.existed) {
      fs::remove(e.target, ec);
    } else {
      ec = std::make_error_code(std::errc::operation_not_supported);  // no hard link was made
    }
    if (ec)
      problems += fmt::format("; '{}' holds the new file and its old one could not be put back "
                              "({})",
                              e.target.string(), ec.message());
    e.renamed = false;
  }
}

void OutputSet::commit() {
  std::error_code ec;
  for (Entry& e : entries_) {
    e.existed = fs::exists(e.target, ec);
    if (!e.existed) continue;
    e.backup = hidden_beside(e.target, "old");
    fs::create_hard_link(e.target, e.backup, ec);
    e.backed_up = !ec;  // without hard links a failed commit cannot put this one back
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    fs::rename(e.temporary, e.target, ec);
    if (ec) {
      std::string problems;
      restore(i, problems);
      throw RunError(fmt::format("cannot move the finished '{}' into place: {}{}",
                                 e.target.string(), ec.message(),
                                 problems.empty() ? "; every output is as it was" : problems));
    }
    e.renamed = true;
  }
  for (Entry& e : entries_) {
    if (e.backed_up) fs::remove(e.backup, ec);
    e.backed_up = false;
    sync_directory(folder_of(e.target));
  }
}

void write_file_atomically(const fs::path& target, std::string_view bytes) {
  OutputSet set;
  set.add(target, bytes);
  set.commit();
}

}  // namespace orrery
