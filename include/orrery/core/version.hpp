// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace orrery {

// The release, and the git commit the library was configured from ("-dirty" with local changes).
const std::string& version();
const std::string& git_hash();

}  // namespace orrery
