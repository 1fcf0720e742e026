// SPDX-License-Identifier: MIT
// The checks an output path passes before any work starts. Outputs are written to a temporary
// file and renamed over the path, so a path may name only a regular file or nothing yet: a
// device (/dev/null), a folder, a pipe or a socket would be replaced by a regular file, and is
// refused. An output may not be one of the job's inputs either (a config file, a particle file):
// writing it would destroy what the run was made from.
#pragma once

#include <filesystem>
#include <string_view>

namespace orrery {

// Refuses, with ParameterError naming `parameter` (how the user gave the path, "--out"), a path
// that is empty, whose folder does not exist or is not writable, or that exists and is not a
// regular file (following symbolic links).
void check_output_path(std::string_view parameter, const std::filesystem::path& path);

// Whether two paths name one file: the same inode where both exist, else the same path once
// symbolic links and ".." are resolved.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Refuses an output that is the same file as an input, naming both parameters. Does nothing
// when `input` is empty (the job has no such input).
void check_output_is_not_input(std::string_view output_parameter,
                               const std::filesystem::path& output,
                               std::string_view input_parameter,
                               const std::filesystem::path& input);

}  // namespace orrery
