// SPDX-License-Identifier: MIT
// Outputs appear whole or not at all: a writer fills a temporary file beside the target and
// renames it over the target only when everything is written (rename is atomic within a
// filesystem). A failed or interrupted run leaves the old file as it was.
#pragma once

#include <filesystem>
#include <string>

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
  // Moves the temporary file over the target. Throws RunError if that fails.
  void commit();

 private:
  std::filesystem::path target_, temporary_;
  bool committed_ = false;
};

}  // namespace orrery
