// SPDX-License-Identifier: MIT
// The MPI plugin: src/dist/communicator_mpi.cpp, built as liborrery_mpi.so beside the library
// (build/lib/) and loaded by communicator.cpp only where a launcher started the process. A
// program that links MPI loads its libraries (libmpi, its runtime, hwloc, libevent) at every
// start; loaded on demand, a process started alone pays nothing for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "orrery/dist/communicator.hpp"

namespace orrery::dist {

// Changed with MpiCalls: a plugin of another build is refused rather than called wrongly.
inline constexpr int kMpiCallsVersion = 4;
inline constexpr const char* kMpiPluginName = "liborrery_mpi.so";
inline constexpr const char* kMpiPluginEntry = "orrery_mpi_calls";

// What the plugin does, for communicator.cpp; the collectives are called only with more than
// one rank.
struct MpiCalls {
  int version;
  std::string (*library)();                      // callable before start
  RankLayout (*start)(int* argc, char*** argv);  // MPI_Init_thread, and where this rank stands
  void (*finish)();                              // MPI_Finalize
  std::vector<std::vector<std::byte>> (*gather_to_root)(std::span<const std::byte> mine);
  void (*broadcast_from_root)(std::vector<std::byte>& bytes);
  int (*least_over_ranks)(int value);
  std::int64_t (*sum_over_ranks)(std::int64_t value);
  double (*max_over_ranks)(double value);
  void (*all_gather)(std::span<const std::byte> mine, std::span<std::byte> all,
                     std::span<const std::int64_t> counts, std::size_t unit);
  void (*all_to_all)(std::span<const std::byte> send, std::span<const std::int64_t> send_counts,
                     std::span<std::byte> receive, std::span<const std::int64_t> receive_counts,
                     std::size_t unit);
  // Two-sided messages of bytes (the dynamic hand-out of tiles): a send, whether a message of
  // `tag` waits from any rank, and a receive from `from` (−1: any rank), which says who sent it.
  void (*send)(int to, int tag, std::span<const std::byte> bytes);
  bool (*message_waiting)(int tag);
  std::vector<std::byte> (*receive)(int from, int tag, int* sender);
  void (*abort_all)(int status);  // MPI_Abort: does not return
};

}  // namespace orrery::dist

// The plugin's one entry: its calls.
extern "C" const orrery::dist::MpiCalls* orrery_mpi_calls();
