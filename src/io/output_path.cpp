// SPDX-License-Identifier: MIT
#include "orrery/io/output_path.hpp"

#include <unistd.h>

#include <string>
#include <system_error>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace fs = std::filesystem;

namespace {

const char* type_words(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a folder";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::fifo: return "a named pipe";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

void check_output_path(std::string_view parameter, const fs::path& path) {
  const std::string value = path.string();
  if (value.empty()) throw ParameterError(std::string(parameter), value, "a file path");
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::directory)
    throw ParameterError(std::string(parameter), value, "a file path, not a folder");
  if (fs::exists(status) && status.type() != fs::file_type::regular)
    throw ParameterError(std::string(parameter), value,
                         fmt::format("a regular file or a new path (this is {}, which an output "
                                     "written to a temporary file and renamed would replace)",
                                     type_words(status.type())));
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    throw ParameterError(std::string(parameter), value,
                         fmt::format("a path in an existing folder ('{}' is not one)",
                                     shown_text(folder.string())));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw ParameterError(std::string(parameter), value,
                         fmt::format("a path in a writable folder ('{}' is not writable)",
                                     shown_text(folder.string())));
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return ca == cb;
}

void check_output_is_not_input(std::string_view output_parameter, const fs::path& output,
                               std::string_view input_parameter, const fs::path& input) {
  if (input.empty() || output.empty()) return;
  if (same_file(output, input))
    throw ParameterError(std::string(output_parameter), output.string(),
                         fmt::format("a file other than the {} file '{}' (an output may not "
                                     "overwrite an input)",
                                     input_parameter, shown_text(input.string())));
}

}  // namespace orrery
