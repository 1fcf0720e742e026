// SPDX-License-Identifier: MIT
// Prints the widest instruction set of orrery's CPU kernels that this machine executes: run at
// configure time by src/CMakeLists.txt, which compiles only that one under ORRERY_CPU_ISAS=native.
#include <cstdio>

#include "device/cpu/isa_support.hpp"

int main() {
  for (std::string_view isa : orrery::cpu::kCpuIsas)
    if (orrery::cpu::cpu_executes(isa)) {
      std::printf("%.*s", static_cast<int>(isa.size()), isa.data());
      return 0;
    }
  return 1;
}
