// SPDX-License-Identifier: MIT
#include "orrery/core/rename_into_place.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>

namespace orrery {

int rename_into_place(const std::filesystem::path& from, const std::filesystem::path& to,
                      IfExists if_exists) {
  if (if_exists == IfExists::replace) return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  const int error = errno;
  // Filesystems without RENAME_NOREPLACE (some network and FUSE ones) say EINVAL or ENOSYS;
  // link() refuses an existing name as atomically.
  if (error != EINVAL && error != ENOSYS && error != EOPNOTSUPP) return error;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
}

}  // namespace orrery
