// SPDX-License-Identifier: MIT
#include "device/cpu/cpu_isa.hpp"

namespace orrery {

namespace {
#define ORRERY_NAME(isa) #isa,
const char* const kCompiled[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_NAME)};
#undef ORRERY_NAME
}  // namespace

namespace cpu {
bool isa_supported(std::string_view isa) {
#if defined(__x86_64__)
  if (isa == "avx512") return __builtin_cpu_supports("x86-64-v4");
  if (isa == "avx2") return __builtin_cpu_supports("x86-64-v3");
#endif
  return isa == "generic";
}
}  // namespace cpu

std::vector<std::string> cpu_kernel_names() { return {std::begin(kCompiled), std::end(kCompiled)}; }

std::vector<std::string> supported_cpu_kernel_names() {
  std::vector<std::string> names;
  for (const char* isa : kCompiled)
    if (cpu::isa_supported(isa)) names.emplace_back(isa);
  return names;
}

}  // namespace orrery
