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
// A write that fails (ENOSPC, EIO, EDQUOT, EFBIG) throws RunError naming the target and the
// system's reason, e.g. "cannot write 'p.h5': No space left on device".
//
// A set made with IfExists::refuse (an output given without --overwrite) never replaces a file:
// each target takes its name only if the name is still free (core/rename_into_place.hpp). A
// target that another process made while this one worked fails commit() with RunError; that
// file stays as it is, and the targets of this set already renamed are removed again.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/core/rename_into_place.hpp"

namespace orrery {

class OutputSet {
 public:
  explicit OutputSet(IfExists if_exists = IfExists::replace) : if_exists_(if_exists) {}
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

  IfExists if_exists_;
  std::vector<Entry> entries_;
};

// One file written with the same guarantee.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes,
                           IfExists if_exists = IfExists::replace);

// The words of a refusal to replace `target`, which another process made while this one
// worked: "cannot write 'P': another process made it while this one worked; ..."
std::string taken_meanwhile_text(const std::filesystem::path& target);

// Fsyncs a folder, so that names created, renamed or removed in it survive a crash. Throws
// RunError with the system's reason (a folder a filesystem cannot sync is accepted as it is).
void sync_directory(const std::filesystem::path& folder);

// Removes the hidden files that a process killed while writing `target` (SIGKILL, a power loss)
// left beside it: those whose maker is no process of this machine and which nobody has changed
// for an hour (a writer on another host sharing the folder has a pid that says nothing here).
// For the outputs a user names, once before the work (io/output_path.hpp: check_output); a
// run's own files are tidied by its store under its lock.
void remove_abandoned_temporaries(const std::filesystem::path& target);

// Whether `name` is one of the hidden files an interrupted OutputSet may leave beside its
// targets (".NAME.tmp-PID-N", ".NAME.old-PID-N").
bool is_output_leftover(const std::string& name);

}  // namespace orrery
