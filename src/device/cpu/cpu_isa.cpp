// SPDX-License-Identifier: MIT
#include "device/cpu/cpu_isa.hpp"

#include "cpu_isa_set.hpp"
#include "device/cpu/isa_support.hpp"

namespace orrery {

namespace {
#define ORRERY_NAME(isa) #isa,
const char* const kCompiled[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_NAME)};
const std::vector<std::string> kLanes{ORRERY_FOR_EACH_LANES_ISA(ORRERY_NAME)};
#undef ORRERY_NAME
}  // namespace

namespace cpu {
bool isa_supported(std::string_view isa) { return cpu_executes(isa); }

InputError no_runnable_kernel(const std::vector<std::string>& compiled,
                              bool (*runs)(std::string_view)) {
  std::vector<std::string_view> cpu_runs;
  for (std::string_view isa : kCpuIsas)
    if (runs(isa)) cpu_runs.push_back(isa);
  return InputError(fmt::format(
      "this orrery was built with CPU kernels for {} only (ORRERY_CPU_ISAS={}), and this CPU "
      "runs {}: rebuild it, for every instruction set (chosen when it runs): `cmake -B build "
      "-DORRERY_CPU_ISAS=all && cmake --build build`, or for this machine's widest: the same "
      "with -DORRERY_CPU_ISAS=native here",
      fmt::join(compiled, ", "), ORRERY_CPU_ISAS_CHOSEN, fmt::join(cpu_runs, ", ")));
}
}  // namespace cpu

std::vector<std::string> cpu_kernel_names() { return {std::begin(kCompiled), std::end(kCompiled)}; }

std::vector<std::string> supported_cpu_kernel_names() {
  std::vector<std::string> names;
  for (const char* isa : kCompiled)
    if (cpu::isa_supported(isa)) names.emplace_back(isa);
  return names;
}

std::vector<std::string> supported_lanes_kernel_names() {
  std::vector<std::string> names;
  for (const std::string& isa : kLanes)
    if (cpu::isa_supported(isa)) names.push_back(isa);
  return names;
}

std::string widest_cpu_kernel() {
  const std::vector<std::string> runs = supported_cpu_kernel_names();
  if (runs.empty()) throw cpu::no_runnable_kernel(cpu_kernel_names(), cpu::isa_supported);
  return runs.front();
}

}  // namespace orrery
