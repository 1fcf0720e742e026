// SPDX-License-Identifier: MIT
// The ranks of a job launched by mpirun or srun, and the few messages the distributed jobs send:
// the one interface over MPI. Without MPI in the build, or without a launcher, the process is
// one rank of one and every call here is a copy or nothing. MPI itself is a plugin loaded only
// under a launcher (src/dist/mpi_calls.hpp): a process started alone does not load it.
//
// Every rank calls the collective functions below in the same order (the jobs do the same work
// in the same order on every rank); a failure inside MPI ends the whole job (MPI's default
// handler), never one rank alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace orrery::dist {

// Whether this build has MPI, and which library ("Open MPI v4.1.4"; why not, where its plugin
// does not load). The second loads the plugin: for --version.
bool mpi_built();
std::string mpi_library();

// Whether a launcher started this process as a rank of an MPI job (its environment says so:
// Open MPI, PMIx, PMI as Slurm and MPICH set it). Only then is MPI initialised.
bool launched_as_rank();

// Whether MPI is initialised in this process (an MpiSession started by a launcher, one rank or
// more): it must end through MPI_Finalize, not by a bare exit.
bool in_mpi_job();

// Where this process stands among the job's ranks.
struct RankLayout {
  int rank = 0, size = 1;            // in the whole job (MPI_COMM_WORLD)
  int node_rank = 0, node_size = 1;  // among the ranks of this host (MPI_Comm_split_type shared)
  // Among this host's ranks whose CPU sets (affinity masks) are this one's: they share its cores.
  int cpu_rank = 0, cpu_sharers = 1;
};
const RankLayout& layout();
inline bool distributed() { return layout().size > 1; }
// Rank 0 alone writes files and speaks.
inline bool writes() { return layout().rank == 0; }

// MPI for the life of this object, where launched_as_rank(): initialised (MPI_THREAD_FUNNELED:
// only the thread that made this object calls MPI) and the layout found; finalised when it ends.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool initialised_ = false;
};

// Collective. Rank 0 gets every rank's bytes, in rank order (its own first); the others an empty
// list. Sent in pieces below MPI's int counts, so any size goes.
std::vector<std::vector<std::byte>> gather_to_root(std::span<const std::byte> mine);
// Collective. Rank 0's bytes on every rank.
void broadcast_from_root(std::vector<std::byte>& bytes);
// Collective. The least and the sum of every rank's value, on every rank.
int least_over_ranks(int value);
std::int64_t sum_over_ranks(std::int64_t value);
// Collective. The largest value of every rank, on every rank: exact, whatever order MPI
// combines them in (the maximum rounds nothing), so a step control that takes a maximum norm
// over the ranks decides as one process would.
double max_over_ranks(double value);

// Collective. Every rank's values, one after the other in rank order, on every rank
// (MPI_Allgatherv): rank r gives counts[r] values of T, and `all` holds Σ counts values.
void all_gather_bytes(std::span<const std::byte> mine, std::span<std::byte> all,
                      std::span<const std::int64_t> counts, std::size_t unit);
template <class T>
void all_gather(std::span<const T> mine, std::span<T> all, std::span<const std::int64_t> counts) {
  all_gather_bytes(std::as_bytes(mine), std::as_writable_bytes(all), counts, sizeof(T));
}

// Collective. Each rank's values for every rank (MPI_Alltoallv): `send` holds send_counts[r]
// values for rank r, one share after the other in rank order, and `receive` gets
// receive_counts[r] values from rank r likewise; rank r's send_counts[me] is this rank's
// receive_counts[r] (exchange_counts finds them).
void all_to_all_bytes(std::span<const std::byte> send, std::span<const std::int64_t> send_counts,
                      std::span<std::byte> receive, std::span<const std::int64_t> receive_counts,
                      std::size_t unit);
template <class T>
void all_to_all(std::span<const T> send, std::span<const std::int64_t> send_counts,
                std::span<T> receive, std::span<const std::int64_t> receive_counts) {
  all_to_all_bytes(std::as_bytes(send), send_counts, std::as_writable_bytes(receive),
                   receive_counts, sizeof(T));
}
// Collective. What every rank sends this one: element r of the result is rank r's
// send_counts[this rank].
std::vector<std::int64_t> exchange_counts(std::span<const std::int64_t> send_counts);

// Two-sided messages (not collective; with more than one rank only): `bytes` to rank `to` under
// `tag`; whether a message of `tag` waits from any rank; the next message of `tag` from rank
// `from` (−1: from any rank), waiting for it, with its sender in *sender.
void send_to(int to, int tag, std::span<const std::byte> bytes);
bool message_waiting(int tag);
std::vector<std::byte> receive_from(int from, int tag, int* sender = nullptr);

// Collective. Whether every rank gave the same value (the fingerprint of its program and
// arguments: a launcher that started other commands on some ranks is refused, not obeyed).
bool alike_on_every_rank(std::uint64_t value);

// Ends every rank of the job with this status (MPI_Abort); the caller has said why. Without
// MPI, std::exit.
[[noreturn]] void abort_all(int status);

}  // namespace orrery::dist
