// SPDX-License-Identifier: MIT
// Files that appear together or not at all, such as a map's picture and its data.
//
// add() writes each file's bytes to a hidden temporary file beside its target (same folder, so
// the same filesystem) and flushes it to disk; no target is touched. commit() then renames the
// temporaries over their targets in the order they were added; put the file whose presence
// means "done" (the picture) last.
//
// The guarantee:
//  - If add() or commit() throws, every target holds what it held before (or is still absent),
//    and no temporary is left behind. commit() keeps each existing target reachable through a
//    hard link until all renames have succeeded, and on a failed rename puts the replaced
//    targets back. Only if putting back fails too (or the filesystem has no hard links) can a
//    target have changed, and the message then says which.
//  - An interruption the process cannot handle (SIGKILL, power loss) during commit() can leave
//    the targets renamed before it new and those after it old: a new last file (the picture)
//    always has its new companions; hidden backups (".NAME.old-PID-K") may remain.
// A write that fails (ENOSPC, EIO, EDQUOT) throws RunError naming the target and the system's
// reason, e.g. "cannot write 'p.h5': No space left on device".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace orrery {

class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  ~OutputSet();  // removes temporaries and backups left after a failure

  void add(const std::filesystem::path& target, std::string_view bytes);
  void commit();

 private:
  struct Entry {
    std::filesystem::path target, temporary, backup;
    bool existed = false;    // the target existed before commit()
    bool backed_up = false;  // `backup` is a hard link to the old target
    bool renamed = false;    // the temporary now is the target
  };
  void restore(std::size_t count, std::string& problems);

  std::vector<Entry> entries_;
};

// One file written with the same guarantee.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);

// Fsyncs a folder, so that names created, renamed or removed in it survive a crash. Throws
// RunError with the system's reason (a folder a filesystem cannot sync is accepted as it is).
void sync_directory(const std::filesystem::path& folder);

// Whether `name` is one of the hidden files an interrupted OutputSet may leave beside its
// targets (".NAME.tmp-PID-N", ".NAME.old-PID-N").
bool is_output_leftover(const std::string& name);

}  // namespace orrery
