// SPDX-License-Identifier: MIT
// Which instruction sets of the CPU kernels this CPU executes, tested as GCC tests them
// (__builtin_cpu_supports). Included only by device/cpu/cpu_isa.cpp and by CMake's look at the
// build machine (ORRERY_CPU_ISAS=native, cmake/native_cpu_isa.cpp), so that configure tests
// exactly what the binary will test when it chooses a kernel.
#pragma once

#include <array>
#include <string_view>

namespace orrery::cpu {

// Every instruction set a CPU kernel can be compiled for, widest first.
inline constexpr std::array<std::string_view, 3> kCpuIsas = {"avx512", "avx2", "generic"};

// Whether this CPU executes the instructions of `isa` (one of kCpuIsas); the library asks
// through cpu::isa_supported (device/cpu/cpu_isa.hpp). Internal linkage: no per-ISA object can
// lend the linker a copy compiled for instructions this CPU may lack.
static inline bool cpu_executes(std::string_view isa) {
#if defined(__x86_64__)
  if (isa == "avx512") return __builtin_cpu_supports("x86-64-v4");
  if (isa == "avx2") return __builtin_cpu_supports("x86-64-v3");
#endif
  return isa == "generic";
}

}  // namespace orrery::cpu
