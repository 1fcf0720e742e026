// SPDX-License-Identifier: MIT
// Choosing among the per-instruction-set variants of a CPU kernel: each kernel table lists one
// entry per compiled ISA, widest first (ORRERY_FOR_EACH_CPU_ISA of the generated
// cpu_isa_set.hpp, which only the files listing the kernels include); the CPU's support is
// tested at run time.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/core/error.hpp"

namespace orrery::cpu {

// Whether this CPU executes the instructions of `isa` ("avx512", "avx2", "generic").
bool isa_supported(std::string_view isa);

// The error for a build none of whose kernels (`compiled`) this CPU runs (`runs` tells what it
// does): what the build was compiled for, what the CPU runs, and how to rebuild.
InputError no_runnable_kernel(const std::vector<std::string>& compiled,
                              bool (*runs)(std::string_view));

// The entry of `kernels` (each with a `name`) for `name`, or the widest this CPU runs for "";
// `runs` tells whether the CPU executes an instruction set. Throws ParameterError("cpu-kernel",
// ...) naming the kernels that are compiled or runnable, or no_runnable_kernel when this CPU
// runs none of them.
template <class Kernel>
const Kernel& choose_kernel(std::span<const Kernel> kernels, const std::string& name,
                            bool (*runs)(std::string_view) = isa_supported) {
  std::vector<std::string> compiled, runnable;
  for (const auto& k : kernels) {
    compiled.emplace_back(k.name);
    if (runs(k.name)) runnable.emplace_back(k.name);
  }
  if (runnable.empty()) throw no_runnable_kernel(compiled, runs);
  for (const auto& k : kernels) {
    if (!name.empty() && name != k.name) continue;
    if (runs(k.name)) return k;
    if (!name.empty())
      throw ParameterError("cpu-kernel", name,
                           fmt::format("a kernel this CPU runs: {}", fmt::join(runnable, ", ")));
  }
  throw ParameterError("cpu-kernel", name, fmt::format("one of: {}", fmt::join(compiled, ", ")));
}

}  // namespace orrery::cpu
