// SPDX-License-Identifier: MIT
#include "orrery/core/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "orrery/core/error.hpp"

namespace orrery {

namespace {

// A "Key:   123 kB" line of a /proc file, in bytes; 0 when absent.
std::uint64_t proc_kb(const char* file, std::string_view key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0 && line.size() > key.size() &&
        line[key.size()] == ':') {
      std::istringstream fields(line.substr(key.size() + 1));
      std::uint64_t kb = 0;
      fields >> kb;
      return kb * 1024;
    }
  return 0;
}

// The number in a one-line cgroup file ("max" and absence read as 0: no limit).
std::uint64_t cgroup_value(const std::string& file) {
  std::ifstream in(file);
  std::uint64_t v = 0;
  return (in >> v) ? v : 0;
}

// This process's cgroup (v2) folder, or "" where there is none.
std::string cgroup_folder() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  return "";
}

}  // namespace

MemoryBudget memory_budget() {
  MemoryBudget b;
  b.bytes = proc_kb("/proc/meminfo", "MemAvailable");
  b.limited_by = "the memory available on this machine";
  if (b.bytes == 0) {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    b.bytes = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : UINT64_MAX;
    b.limited_by = "the physical memory of this machine";
  }
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t mapped = proc_kb("/proc/self/status", "VmSize");
    const std::uint64_t left = as.rlim_cur > mapped ? as.rlim_cur - mapped : 0;
    if (left < b.bytes) b = {left, "the address-space limit (ulimit -v)"};
  }
  if (const std::string folder = cgroup_folder(); !folder.empty()) {
    const std::uint64_t max = cgroup_value(folder + "/memory.max");
    if (max > 0) {
      const std::uint64_t used = cgroup_value(folder + "/memory.current");
      const std::uint64_t left = max > used ? max - used : 0;
      if (left < b.bytes) b = {left, "the cgroup's memory.max"};
    }
  }
  return b;
}

std::string format_bytes(double bytes) {
  static constexpr const char* kUnits[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int unit = 0;
  while (bytes >= 1000.0 && unit < 6) bytes /= 1000.0, ++unit;
  return unit == 0 ? fmt::format("{:.0f} bytes", bytes) : fmt::format("{:.3g} {}", bytes, kUnits[unit]);
}

void check_memory(std::string_view what, double bytes) {
  const MemoryBudget budget = memory_budget();
  if (bytes <= static_cast<double>(budget.bytes)) return;
  throw InputError(fmt::format("{} needs about {} of memory; this process may use {} ({})", what,
                               format_bytes(bytes), format_bytes(static_cast<double>(budget.bytes)),
                               budget.limited_by));
}

}  // namespace orrery
