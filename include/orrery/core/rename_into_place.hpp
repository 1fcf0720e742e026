// SPDX-License-Identifier: MIT
// The last step of every output: a finished temporary file takes its target's name. Where the
// target may not be replaced (no --overwrite), the check that it does not exist and the rename
// are one atomic step, so two processes that both found the name free cannot both take it: the
// second is told, and the first one's file stays.
#pragma once

#include <filesystem>

namespace orrery {

enum class IfExists { replace, refuse };

// Renames `from` to `to`; 0 on success, else the errno (EEXIST: `to` exists and `if_exists` is
// refuse, `from` then is untouched). refuse uses renameat2(RENAME_NOREPLACE), and where the
// filesystem has no such rename, a hard link to the new name and the removal of the old.
int rename_into_place(const std::filesystem::path& from, const std::filesystem::path& to,
                      IfExists if_exists);

}  // namespace orrery
