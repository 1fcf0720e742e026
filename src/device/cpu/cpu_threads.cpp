// SPDX-License-Identifier: MIT
#include "orrery/device/cpu/cpu_threads.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>

namespace orrery {

int affinity_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return std::max(1, omp_get_num_procs());
  return std::max(1, CPU_COUNT(&set));
}

int default_cpu_threads() { return std::clamp(omp_get_max_threads(), 1, affinity_cpu_count()); }

int cpu_thread_limit(int requested) {
  const int asked = requested > 0 ? requested : default_cpu_threads();
  return std::max(1, std::min(asked, affinity_cpu_count()));
}

int cpu_thread_count(int requested, std::size_t work, std::size_t grain) {
  return threads_for_work(cpu_thread_limit(requested), work, grain);
}

std::string cpu_threads_note(int requested) {
  const int cpus = affinity_cpu_count();
  if (requested <= cpus) return "";
  return std::to_string(requested) + " threads asked for; this process may use " +
         std::to_string(cpus) + " CPU" + (cpus == 1 ? "" : "s") +
         " (its affinity mask), so at most " + std::to_string(cpus) + " run";
}

}  // namespace orrery
