// SPDX-License-Identifier: MIT
#include "orrery/core/version.hpp"

namespace orrery {

const std::string& version() {
  static const std::string v = ORRERY_VERSION;
  return v;
}
const std::string& git_hash() {
  static const std::string h = ORRERY_GIT_HASH;
  return h;
}

}  // namespace orrery
