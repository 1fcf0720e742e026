// SPDX-License-Identifier: MIT
// dist/communicator.hpp over MPI: the one file of the library that includes <mpi.h>.
#include <sched.h>

// The C interface only: Open MPI's and MPICH's mpi.h would bring in their C++ bindings, whose
// library this build does not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "dist/launcher.hpp"
#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

namespace {

RankLayout g_layout;
bool g_running = false;  // between MPI_Init_thread and MPI_Finalize

// Messages are sent in pieces below MPI's int counts.
constexpr std::size_t kPieceBytes = std::size_t{1} << 30;
constexpr int kGatherTag = 7001;

int as_count(std::size_t bytes) { return static_cast<int>(bytes); }

// Which of this host's ranks share this rank's CPUs: equal affinity masks.
void find_cpu_sharers(MPI_Comm node, RankLayout& l) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return;
  std::vector<cpu_set_t> all(static_cast<std::size_t>(l.node_size));
  MPI_Allgather(&mine, as_count(sizeof mine), MPI_BYTE, all.data(), as_count(sizeof mine), MPI_BYTE,
                node);
  l.cpu_sharers = 0;
  for (int r = 0; r < l.node_size; ++r) {
    if (!CPU_EQUAL(&all[static_cast<std::size_t>(r)], &mine)) continue;
    if (r < l.node_rank) ++l.cpu_rank;
    ++l.cpu_sharers;
  }
}

}  // namespace

bool mpi_built() { return true; }

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);  // callable before MPI_Init
  std::string s(text, static_cast<std::size_t>(std::max(0, length)));
  return s.substr(0, s.find_first_of(",\n"));
}

bool in_mpi_job() { return g_running; }

const RankLayout& layout() { return g_layout; }

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_as_rank()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialised_ = g_running = true;
  RankLayout l;
  MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &l.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, l.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &l.node_rank);
  MPI_Comm_size(node, &l.node_size);
  find_cpu_sharers(node, l);
  MPI_Comm_free(&node);
  g_layout = l;
}

MpiSession::~MpiSession() {
  if (!initialised_) return;
  std::fflush(nullptr);
  MPI_Finalize();
  g_running = false;
  g_layout = RankLayout{};
}

std::vector<std::vector<std::byte>> gather_to_root(std::span<const std::byte> mine) {
  std::vector<std::vector<std::byte>> all;
  if (!g_running || g_layout.size == 1) {
    all.emplace_back(mine.begin(), mine.end());
    return all;
  }
  const auto size = static_cast<std::size_t>(g_layout.size);
  std::int64_t my_bytes = static_cast<std::int64_t>(mine.size());
  std::vector<std::int64_t> bytes(g_layout.rank == 0 ? size : 0);
  MPI_Gather(&my_bytes, 1, MPI_INT64_T, bytes.data(), 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  if (g_layout.rank != 0) {
    for (std::size_t at = 0; at < mine.size(); at += kPieceBytes)
      MPI_Send(mine.data() + at, as_count(std::min(kPieceBytes, mine.size() - at)), MPI_BYTE, 0,
               kGatherTag, MPI_COMM_WORLD);
    return all;
  }
  all.resize(size);
  all[0].assign(mine.begin(), mine.end());
  for (std::size_t r = 1; r < size; ++r) {  // in rank order: the same bytes every time
    all[r].resize(static_cast<std::size_t>(bytes[r]));
    for (std::size_t at = 0; at < all[r].size(); at += kPieceBytes)
      MPI_Recv(all[r].data() + at, as_count(std::min(kPieceBytes, all[r].size() - at)), MPI_BYTE,
               static_cast<int>(r), kGatherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return all;
}

void broadcast_from_root(std::vector<std::byte>& bytes) {
  if (!g_running || g_layout.size == 1) return;
  std::int64_t n = static_cast<std::int64_t>(bytes.size());
  MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(static_cast<std::size_t>(n));
  for (std::size_t at = 0; at < bytes.size(); at += kPieceBytes)
    MPI_Bcast(bytes.data() + at, as_count(std::min(kPieceBytes, bytes.size() - at)), MPI_BYTE, 0,
              MPI_COMM_WORLD);
}

int least_over_ranks(int value) {
  if (!g_running || g_layout.size == 1) return value;
  int least = value;
  MPI_Allreduce(&value, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return least;
}

std::int64_t sum_over_ranks(std::int64_t value) {
  if (!g_running || g_layout.size == 1) return value;
  std::int64_t sum = value;
  MPI_Allreduce(&value, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

void abort_all(int status) {
  std::fflush(nullptr);
  if (g_running) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

}  // namespace orrery::dist
