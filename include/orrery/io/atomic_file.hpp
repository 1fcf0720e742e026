// SPDX-License-Identifier: MIT
// Outputs appear whole or not at all: a writer fills a temporary file beside the target and
// renames it over the target only when everything is written (rename is atomic within a
// filesystem). The temporary file is fsynced before the rename and the folder after it, so
// that after a crash or a power loss the target is either the old file or the whole new one.
// A failed or interrupted run leaves the old file as it was.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace orrery {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::filesystem::path target);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();  // removes the temporary file unless committed

  // Where to write meanwhile (same folder as the target, hidden name).
  const std::filesystem::path& temporary() const { return temporary_; }
  const std::filesystem::path& target() const { return target_; }
  // Fsyncs the temporary file, moves it over the target and fsyncs the folder. Throws RunError
  // naming the system's reason (e.g. "No space left on device") if any of that fails.
  void commit();

 private:
  std::filesystem::path target_, temporary_;
  bool committed_ = false;
};

// Writes `bytes` to `target` as AtomicOutput does: a temporary file, fsync, rename, fsync of
// the folder. Throws RunError with the system's reason when a write fails (a full disk).
void write_file_atomically(const std::filesystem::path& target,
                           std::span<const std::uint8_t> bytes);

// Fsyncs a folder, so that names created, renamed or removed in it survive a crash.
void sync_directory(const std::filesystem::path& folder);

// Whether `name` is one of AtomicOutput's temporary files (".<target>.tmp-<pid>-<n>").
bool is_atomic_temporary(const std::string& name);

// Refuses, before any work starts, an output path whose folder does not exist or is not
// writable, or that names a folder. `parameter` is how the user gave it ("--out").
void check_output_path(std::string_view parameter, const std::filesystem::path& path);

}  // namespace orrery
