// SPDX-License-Identifier: MIT
// The checks an output path passes before any work starts, so that a job never computes what it
// cannot write. Outputs are written to a hidden temporary file beside the target and renamed
// over it (io/output_set.hpp), so a path may name only a regular file or nothing yet: a device
// (/dev/null), a folder, a pipe or a socket would be replaced by a regular file, and is refused.
// The name must leave room for the hidden temporary's longer name, and its folder must exist,
// be writable and not have been deleted (a shell's current folder removed under it).
// An output may not be one of the job's inputs, nor a file inside a folder the job reads (a run
// of `orrery sim`): writing it would destroy what the job, or the run, is made from. No
// --overwrite lifts that rule.
#pragma once

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string_view>

namespace orrery {

// The longest hidden name orrery writes beside an output (".NAME.tmp-PID-N", ".NAME.old-PID-N",
// ".NAME.tmp-PID.mp4", ".NAME.log-PID") is NAME and at most this many bytes more.
inline constexpr std::size_t kHiddenNameExtra = 32;

// Refuses, with ParameterError naming `parameter` (how the user gave the path, "--out"), a path
// that is empty, whose file name is too long for its filesystem (with room for the hidden
// temporary), whose folder does not exist, was deleted or is not writable, or that exists and is
// not a regular file (following symbolic links).
void check_output_path(std::string_view parameter, const std::filesystem::path& path);

// Whether two paths name one file: the same inode where both exist, else the same path once
// symbolic links and ".." are resolved.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Refuses an output that is the same file as an input, or that lies in a folder given as an
// input (a run, whose files the job reads), naming both parameters. Does nothing when `input`
// is empty (the job has no such input).
void check_output_is_not_input(std::string_view output_parameter,
                               const std::filesystem::path& output,
                               std::string_view input_parameter,
                               const std::filesystem::path& input);

// What a job reads: how the user gave it and its path (a file or a folder; "" for none).
struct JobInput {
  std::string_view parameter;
  std::filesystem::path path;
};

// Every rule for one output file, in one call: check_output_path(), an existing file refused
// unless `overwrite` ("add --overwrite to replace it"), and check_output_is_not_input() for each
// input; then removes the temporaries abandoned beside it (io/output_set.hpp). Write it
// afterwards with IfExists::refuse unless `overwrite`, so that a file another process makes
// meanwhile is not replaced either.
void check_output(std::string_view parameter, const std::filesystem::path& path, bool overwrite,
                  std::initializer_list<JobInput> inputs = {});

}  // namespace orrery
