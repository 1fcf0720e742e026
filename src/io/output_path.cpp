// SPDX-License-Identifier: MIT
#include "orrery/io/output_path.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <system_error>

#include <fmt/format.h>

#include "orrery/core/error.hpp"
#include "orrery/io/output_set.hpp"
#include "orrery/io/run_store.hpp"

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

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// Whether `folder` exists as a folder but has been removed from its parent (rmdir on a shell's
// current folder leaves it open with no links): nothing can be made in it.
bool was_deleted(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  const bool gone = ::fstat(fd, &st) == 0 && st.st_nlink == 0;
  ::close(fd);
  return gone;
}

std::size_t longest_name(const fs::path& folder) {
  const long n = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  return n > 0 ? static_cast<std::size_t>(n) : NAME_MAX;
}

}  // namespace

void check_output_path(std::string_view parameter, const fs::path& path) {
  const std::string value = path.string();
  const std::string flag(parameter);
  if (value.empty()) throw ParameterError(flag, value, "a file path (an empty name names no file)");
  if (value.size() + kHiddenNameExtra >= PATH_MAX)
    throw ParameterError(flag, value,
                         fmt::format("a path shorter than {} bytes (this one has {})",
                                     PATH_MAX - kHiddenNameExtra, value.size()));
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::directory)
    throw ParameterError(flag, value, "a file path, not a folder");
  if (fs::exists(status) && status.type() != fs::file_type::regular)
    throw ParameterError(flag, value,
                         fmt::format("a regular file or a new path (this is {}, which an output "
                                     "written to a temporary file and renamed would replace)",
                                     type_words(status.type())));
  const fs::path folder = folder_of(path);
  if (!fs::is_directory(folder, ec))
    throw ParameterError(flag, value,
                         fmt::format("a path in an existing folder ('{}' is not one)",
                                     shown_text(folder.string())));
  if (was_deleted(folder))
    throw ParameterError(flag, value,
                         fmt::format("a path in an existing folder ('{}' has been deleted{})",
                                     shown_text(folder.string()),
                                     path.has_parent_path() ? "" : ": it is the current folder"));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw ParameterError(flag, value,
                         fmt::format("a path in a writable folder ('{}' is not writable)",
                                     shown_text(folder.string())));
  const std::size_t name = path.filename().string().size(), most = longest_name(folder);
  if (name + kHiddenNameExtra > most)
    throw ParameterError(flag, value,
                         fmt::format("a file name of at most {} bytes (this one has {}; its "
                                     "folder takes names of {}, and the file is first written "
                                     "under a hidden name {} bytes longer)",
                                     most - kHiddenNameExtra, name, most, kHiddenNameExtra));
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
  std::error_code ec;
  // A folder the job reads is read whole (a run's snapshots, checkpoints and description): a
  // file written there would replace one of them, or be taken for one by the next reader.
  if (fs::is_directory(input, ec) && same_file(folder_of(output), input))
    throw ParameterError(std::string(output_parameter), output.string(),
                         fmt::format("a file outside the folder '{}' that {} reads (an output "
                                     "there could replace a file of it)",
                                     shown_text(input.string()), input_parameter));
  // A file read out of a run (a snapshot) leaves the rest of the run as it was: an output
  // beside it would replace another of the run's files (forces over the next snapshot).
  const fs::path run = folder_of(input);
  if (!fs::is_directory(input, ec) && is_run_folder(run) && same_file(folder_of(output), run))
    throw ParameterError(std::string(output_parameter), output.string(),
                         fmt::format("a file outside the run '{}' of the {} file (an output "
                                     "there could replace a file of the run)",
                                     shown_text(run.string()), input_parameter));
}

void check_output(std::string_view parameter, const fs::path& path, bool overwrite,
                  std::initializer_list<JobInput> inputs) {
  check_output_path(parameter, path);
  for (const JobInput& input : inputs)
    check_output_is_not_input(parameter, path, input.parameter, input.path);
  std::error_code ec;
  if (!overwrite && fs::exists(fs::symlink_status(path, ec)))
    throw ParameterError(std::string(parameter), path.string(),
                         "a file that does not exist yet (add --overwrite to replace it)");
  remove_abandoned_temporaries(path);
}

}  // namespace orrery
