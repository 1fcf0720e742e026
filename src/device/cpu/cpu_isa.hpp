// SPDX-License-Identifier: MIT
// Choosing among the per-instruction-set variants of a CPU kernel: each kernel table lists one
// entry per compiled ISA, widest first (CMake defines ORRERY_HAVE_KERNEL_<isa>); the CPU's
// support is tested at run time.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/core/error.hpp"

// X(isa) for every instruction set this build compiled kernels for, widest first.
#if defined(ORRERY_HAVE_KERNEL_avx512)
#define ORRERY_IF_AVX512(X) X(avx512)
#else
#define ORRERY_IF_AVX512(X)
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
#define ORRERY_IF_AVX2(X) X(avx2)
#else
#define ORRERY_IF_AVX2(X)
#endif
#define ORRERY_FOR_EACH_CPU_ISA(X) ORRERY_IF_AVX512(X) ORRERY_IF_AVX2(X) X(generic)

namespace orrery::cpu {

// Whether this CPU executes the instructions of `isa`.
bool isa_supported(std::string_view isa);

// The entry of `kernels` (each with a `name`) for `name`, or the widest this CPU runs for "".
// Throws ParameterError("cpu-kernel", ...) naming the kernels that are compiled or runnable.
template <class Kernel>
const Kernel& choose_kernel(std::span<const Kernel> kernels, const std::string& name) {
  for (const auto& k : kernels) {
    if (!name.empty() && name != k.name) continue;
    if (isa_supported(k.name)) return k;
    if (!name.empty())
      throw ParameterError("cpu-kernel", name,
                           fmt::format("a kernel this CPU runs: {}",
                                       fmt::join(supported_cpu_kernel_names(), ", ")));
  }
  throw ParameterError("cpu-kernel", name,
                       fmt::format("one of: {}", fmt::join(cpu_kernel_names(), ", ")));
}

}  // namespace orrery::cpu
