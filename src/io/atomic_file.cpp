// SPDX-License-Identifier: MIT
#include "orrery/io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <system_error>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace fs = std::filesystem;

AtomicOutput::AtomicOutput(fs::path target) : target_(std::move(target)) {
  static std::atomic<int> serial{0};
  const fs::path folder = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  temporary_ = folder / fmt::format(".{}.tmp-{}-{}", target_.filename().string(), ::getpid(),
                                    serial.fetch_add(1));
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) {
    std::error_code ec;
    fs::remove(temporary_, ec);
  }
}

void AtomicOutput::commit() {
  std::error_code ec;
  fs::rename(temporary_, target_, ec);
  if (ec)
    throw RunError(fmt::format("cannot move the finished '{}' to '{}': {}", temporary_.string(),
                               target_.string(), ec.message()));
  committed_ = true;
}

}  // namespace orrery
