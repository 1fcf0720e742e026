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

void check_output_path(std::string_view parameter, const fs::path& path) {
  const std::string value = path.string();
  if (value.empty()) throw ParameterError(std::string(parameter), value, "a file path");
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
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
