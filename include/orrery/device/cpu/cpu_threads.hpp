// SPDX-License-Identifier: MIT
// How many CPU threads a piece of work gets: no more than asked for, than the CPUs this process
// may run on (its affinity mask: a container, `taskset` or a batch system may allow fewer than
// the machine has), and than the work can keep busy (a thread's share must outweigh the cost of
// waking it and waiting for it). One thread means no parallel region at all: the calling thread
// does the work (device/cpu/on_threads.hpp), so a small system pays no futex and no wake-up.
#pragma once

#include <cstddef>
#include <limits>
#include <string>

namespace orrery {

// CPUs in this process's affinity mask (sched_getaffinity), at least 1.
int affinity_cpu_count();

// The threads the CPU code uses when asked for none: the CPUs this process may use, or fewer
// where OMP_NUM_THREADS says so.
int default_cpu_threads();

// The most threads CPU work of this process gets: min(requested (0: default_cpu_threads()),
// affinity_cpu_count()), at least 1. A system call: ask once (when an engine is made), not per
// evaluation.
int cpu_thread_limit(int requested);

// Threads for `work` items, `grain` the fewest items worth a thread of their own: min(limit,
// work / grain), at least 1.
inline int threads_for_work(int limit, std::size_t work, std::size_t grain) {
  const std::size_t usable = work / (grain > 0 ? grain : 1);
  return usable < 2 ? 1 : usable < static_cast<std::size_t>(limit) ? static_cast<int>(usable)
                                                                   : limit;
}

// Both at once: threads_for_work(cpu_thread_limit(requested), work, grain).
int cpu_thread_count(int requested, std::size_t work = std::numeric_limits<std::size_t>::max(),
                     std::size_t grain = 1);

// "" when `requested` threads are usable as asked; else a note saying it was lowered to the
// CPUs this process may use ("32 threads asked for; this process may use 2 CPUs (its affinity
// mask), so at most 2 run").
std::string cpu_threads_note(int requested);

}  // namespace orrery
