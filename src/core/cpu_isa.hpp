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

#include "orrery/core/cpu_kernels.hpp"
#include "orrery/core/error.hpp"

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
