// SPDX-License-Identifier: MIT
// dist/communicator.hpp in a build without MPI: one rank of one. Started by a launcher as one of
// several ranks, such a process would do the whole job beside the others and race them for the
// same files: it refuses instead.
#include <cstdio>
#include <cstdlib>

#include "dist/launcher.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

bool mpi_built() { return false; }
std::string mpi_library() { return ""; }

bool in_mpi_job() { return false; }

const RankLayout& layout() {
  static const RankLayout one;
  return one;
}

MpiSession::MpiSession(int&, char**&) {
  if (!launched_as_rank() || launcher_rank_count() <= 1) return;
  std::fprintf(stderr, "orrery: started as one of %d ranks, but this build has no MPI "
                       "(configured with ORRERY_MPI=OFF, or without libopenmpi-dev): rebuild "
                       "with -DORRERY_MPI=ON, or run one process without mpirun\n",
               launcher_rank_count());
  std::exit(2);
}

MpiSession::~MpiSession() = default;

std::vector<std::vector<std::byte>> gather_to_root(std::span<const std::byte> mine) {
  return {std::vector<std::byte>(mine.begin(), mine.end())};
}
void broadcast_from_root(std::vector<std::byte>&) {}
int least_over_ranks(int value) { return value; }
std::int64_t sum_over_ranks(std::int64_t value) { return value; }

void abort_all(int status) {
  std::fflush(nullptr);
  std::exit(status);
}

}  // namespace orrery::dist
