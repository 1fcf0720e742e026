// SPDX-License-Identifier: MIT
// The MPI plugin (dist/mpi_calls.hpp): the one file that includes <mpi.h>, built as
// liborrery_mpi.so and linked with MPI. communicator.cpp calls it only where a launcher started
// the process, and its collectives only with more than one rank.
#include <sched.h>

// The C interface only: Open MPI's and MPICH's mpi.h would bring in their C++ bindings, whose
// library this build does not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "dist/mpi_calls.hpp"

namespace orrery::dist {

namespace {

// Messages are sent in pieces below MPI's int counts.
constexpr std::size_t kPieceBytes = std::size_t{1} << 30;
constexpr int kGatherTag = 7001;

int as_count(std::size_t bytes) { return static_cast<int>(bytes); }

std::string library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);  // callable before MPI_Init
  std::string s(text, static_cast<std::size_t>(std::max(0, length)));
  return s.substr(0, s.find_first_of(",\n"));
}

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

RankLayout start(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  RankLayout l;
  MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &l.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, l.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &l.node_rank);
  MPI_Comm_size(node, &l.node_size);
  find_cpu_sharers(node, l);
  MPI_Comm_free(&node);
  return l;
}

void finish() { MPI_Finalize(); }

std::vector<std::vector<std::byte>> gather_to_root(std::span<const std::byte> mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::int64_t my_bytes = static_cast<std::int64_t>(mine.size());
  std::vector<std::int64_t> bytes(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&my_bytes, 1, MPI_INT64_T, bytes.data(), 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  std::vector<std::vector<std::byte>> all;
  if (rank != 0) {
    for (std::size_t at = 0; at < mine.size(); at += kPieceBytes)
      MPI_Send(mine.data() + at, as_count(std::min(kPieceBytes, mine.size() - at)), MPI_BYTE, 0,
               kGatherTag, MPI_COMM_WORLD);
    return all;
  }
  all.resize(static_cast<std::size_t>(size));
  all[0].assign(mine.begin(), mine.end());
  for (std::size_t r = 1; r < all.size(); ++r) {  // in rank order: the same bytes every time
    all[r].resize(static_cast<std::size_t>(bytes[r]));
    for (std::size_t at = 0; at < all[r].size(); at += kPieceBytes)
      MPI_Recv(all[r].data() + at, as_count(std::min(kPieceBytes, all[r].size() - at)), MPI_BYTE,
               static_cast<int>(r), kGatherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return all;
}

void broadcast_from_root(std::vector<std::byte>& bytes) {
  std::int64_t n = static_cast<std::int64_t>(bytes.size());
  MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(static_cast<std::size_t>(n));
  for (std::size_t at = 0; at < bytes.size(); at += kPieceBytes)
    MPI_Bcast(bytes.data() + at, as_count(std::min(kPieceBytes, bytes.size() - at)), MPI_BYTE, 0,
              MPI_COMM_WORLD);
}

int least_over_ranks(int value) {
  int least = value;
  MPI_Allreduce(&value, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return least;
}

std::int64_t sum_over_ranks(std::int64_t value) {
  std::int64_t sum = value;
  MPI_Allreduce(&value, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

double max_over_ranks(double value) {
  double most = value;
  MPI_Allreduce(&value, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

// Counts and displacements in units of `unit` bytes (one value of the caller's type), so that an
// int count reaches 2³¹ values rather than 2³¹ bytes.
void all_gather(std::span<const std::byte> mine, std::span<std::byte> all,
                std::span<const std::int64_t> counts, std::size_t unit) {
  MPI_Datatype value;
  MPI_Type_contiguous(as_count(unit), MPI_BYTE, &value);
  MPI_Type_commit(&value);
  std::vector<int> count(counts.size()), at(counts.size());
  std::int64_t offset = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    count[r] = static_cast<int>(counts[r]);
    at[r] = static_cast<int>(offset);
    offset += counts[r];
  }
  MPI_Allgatherv(mine.data(), as_count(mine.size() / unit), value, all.data(), count.data(),
                 at.data(), value, MPI_COMM_WORLD);
  MPI_Type_free(&value);
}

// The same, for MPI_Alltoallv: counts and displacements in values, each rank's share in rank
// order (displacements must fit an int: 2³¹ values of the caller's type).
void all_to_all(std::span<const std::byte> send, std::span<const std::int64_t> send_counts,
                std::span<std::byte> receive, std::span<const std::int64_t> receive_counts,
                std::size_t unit) {
  MPI_Datatype value;
  MPI_Type_contiguous(as_count(unit), MPI_BYTE, &value);
  MPI_Type_commit(&value);
  const auto ints = [](std::span<const std::int64_t> counts, std::vector<int>& count,
                       std::vector<int>& at) {
    count.resize(counts.size()), at.resize(counts.size());
    std::int64_t offset = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      count[r] = static_cast<int>(counts[r]);
      at[r] = static_cast<int>(offset);
      offset += counts[r];
    }
  };
  std::vector<int> sc, sa, rc, ra;
  ints(send_counts, sc, sa);
  ints(receive_counts, rc, ra);
  MPI_Alltoallv(send.data(), sc.data(), sa.data(), value, receive.data(), rc.data(), ra.data(),
                value, MPI_COMM_WORLD);
  MPI_Type_free(&value);
}

void send(int to, int tag, std::span<const std::byte> bytes) {
  MPI_Send(bytes.data(), as_count(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

bool message_waiting(int tag) {
  int waiting = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
  return waiting != 0;
}

std::vector<std::byte> receive(int from, int tag, int* sender) {
  MPI_Status status;
  MPI_Probe(from < 0 ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<std::byte> bytes(static_cast<std::size_t>(count));
  MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  if (sender) *sender = status.MPI_SOURCE;
  return bytes;
}

void abort_all(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

const MpiCalls kCalls = {kMpiCallsVersion,   library,           start,          finish,
                         gather_to_root,     broadcast_from_root, least_over_ranks, sum_over_ranks,
                         max_over_ranks,     all_gather,        all_to_all,       send,
                         message_waiting,    receive,           abort_all};

}  // namespace

}  // namespace orrery::dist

extern "C" const orrery::dist::MpiCalls* orrery_mpi_calls() { return &orrery::dist::kCalls; }
