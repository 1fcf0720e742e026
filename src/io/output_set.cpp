// SPDX-License-Identifier: MIT
#include "orrery/io/output_set.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
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

// The pid in `name` if it is a hidden file of OutputSet beside `target`
// (".TARGET.tmp-PID-N", ".TARGET.old-PID-N"), else 0.
pid_t maker_of(const std::string& name, const std::string& target) {
  for (const char* kind : {".tmp-", ".old-"}) {
    const std::string prefix = "." + target + kind;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const auto dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash + 1 == rest.size() ||
        rest.find_first_not_of("0123456789-") != std::string::npos ||
        rest.find('-', dash + 1) != std::string::npos || dash > 9)
      return 0;
    return static_cast<pid_t>(std::stol(rest.substr(0, dash)));
  }
  return 0;
}

// How long a hidden file must have been left unchanged before it counts as abandoned: on a
// folder shared by several machines (NFS) its maker may be alive on another host, where no pid
// of this one says anything, and a file being written is changed all the time.
constexpr auto kAbandonedAfter = std::chrono::hours(1);

}  // namespace

void remove_abandoned_temporaries(const fs::path& target) {
  std::error_code ec;
  const std::string name = target.filename().string();
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(folder_of(target), ec)) {
    const pid_t maker = maker_of(entry.path().filename().string(), name);
    if (maker <= 0 || maker == ::getpid()) continue;
    if (::kill(maker, 0) == 0 || errno != ESRCH) continue;
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec)) continue;
    const auto changed = entry.last_write_time(ec);
    if (!ec && now - changed > kAbandonedAfter) fs::remove(entry.path(), ec);
  }
}

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

std::string taken_meanwhile_text(const fs::path& target) {
  return fmt::format("cannot write '{}': another process made it while this one worked; it is "
                     "left as it is and this result is discarded (give another name, or "
                     "--overwrite to replace it)",
                     shown_text(target.string(), 400));
}

void OutputSet::commit() {
  std::error_code ec;
  for (Entry& e : entries_) {
    if (if_exists_ == IfExists::refuse) continue;  // nothing is replaced, nothing to put back
    e.existed = fs::exists(e.target, ec);
    if (!e.existed) continue;
    e.backup = hidden_beside(e.target, "old");
    fs::create_hard_link(e.target, e.backup, ec);
    e.backed_up = !ec;  // without hard links a failed commit cannot put this one back
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    const int error = rename_into_place(e.temporary, e.target, if_exists_);
    if (error != 0) {
      std::string problems;
      restore(i, problems);
      const std::string outcome = problems.empty() ? "; every output is as it was" : problems;
      if (error == EEXIST && if_exists_ == IfExists::refuse)
        throw RunError(taken_meanwhile_text(e.target) + (i > 0 ? outcome : ""));
      throw RunError(fmt::format("cannot move the finished '{}' into place: {}{}",
                                 e.target.string(), std::strerror(error), outcome));
    }
    e.renamed = true;
  }
  for (Entry& e : entries_) {
    if (e.backed_up) fs::remove(e.backup, ec);
    e.backed_up = false;
    sync_directory(folder_of(e.target));
  }
}

void write_file_atomically(const fs::path& target, std::string_view bytes, IfExists if_exists) {
  OutputSet set(if_exists);
  set.add(target, bytes);
  set.commit();
}

}  // namespace orrery
