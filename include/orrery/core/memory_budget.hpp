// SPDX-License-Identifier: MIT
// How much memory this process may still take, so that a job can refuse before its work an
// amount it could not get (instead of ending in std::bad_alloc, or in the kernel's OOM killer,
// halfway through). The budget is the smallest of: MemAvailable of /proc/meminfo (physical
// memory where that is not readable), the address space RLIMIT_AS leaves above what is mapped
// now, and the cgroup's memory.max less its memory.current.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace orrery {

struct MemoryBudget {
  std::uint64_t bytes = 0;
  std::string limited_by;  // "available memory", "the address-space limit (ulimit -v)", ...
};

MemoryBudget memory_budget();

// "1.2 GB", "640 MB": decimal units, three significant figures.
std::string format_bytes(double bytes);

// Throws InputError "<what> needs about X of memory; this process may use Y (<limited_by>)"
// when `bytes` exceeds the budget. `what` names the work and the parameter that sizes it,
// e.g. "--resolution 100000 (a 100000x100000 map)".
void check_memory(std::string_view what, double bytes);

}  // namespace orrery
