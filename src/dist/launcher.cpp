// SPDX-License-Identifier: MIT
#include "dist/launcher.hpp"

#include <cstdlib>

namespace orrery::dist {

namespace {

const char* const kRankVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
const char* const kSizeVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

}  // namespace

bool launched_as_rank() {
  for (const char* name : kRankVariables)
    if (std::getenv(name)) return true;
  return false;
}

int launcher_rank_count() {
  for (const char* name : kSizeVariables)
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

}  // namespace orrery::dist
