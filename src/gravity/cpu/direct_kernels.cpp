// SPDX-License-Identifier: MIT
// The instruction-set variants of the direct engine this build compiled (CMake defines
// ORRERY_HAVE_KERNEL_<name>), each with the run-time test that the CPU can execute it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "direct_kernel.hpp"
#include "orrery/core/error.hpp"
#include "orrery/gravity/engines.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE_KERNEL(name) \
  namespace name {                  \
  extern const DirectKernelOps direct_kernel_ops; \
  }
#if defined(ORRERY_HAVE_KERNEL_avx512)
ORRERY_DECLARE_KERNEL(avx512)
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
ORRERY_DECLARE_KERNEL(avx2)
#endif
ORRERY_DECLARE_KERNEL(generic)
#undef ORRERY_DECLARE_KERNEL

namespace {
#if defined(ORRERY_HAVE_KERNEL_avx512)
bool has_avx512() { return __builtin_cpu_supports("x86-64-v4"); }
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
bool has_avx2() { return __builtin_cpu_supports("x86-64-v3"); }
#endif
bool always() { return true; }

constexpr DirectKernel kKernels[] = {
#if defined(ORRERY_HAVE_KERNEL_avx512)
    {"avx512", has_avx512, &avx512::direct_kernel_ops},
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
    {"avx2", has_avx2, &avx2::direct_kernel_ops},
#endif
    {"generic", always, &generic::direct_kernel_ops},
};
}  // namespace

std::span<const DirectKernel> direct_kernels() { return kKernels; }

const DirectKernel& choose_direct_kernel(const std::string& name) {
  for (const auto& k : kKernels) {
    if (!name.empty() && name != k.name) continue;
    if (k.supported()) return k;
    if (!name.empty())
      throw ParameterError("cpu-kernel", name,
                           fmt::format("a kernel this CPU runs: {}",
                                       fmt::join(supported_cpu_engine_kernel_names(), ", ")));
  }
  throw ParameterError("cpu-kernel", name,
                       fmt::format("one of: {}", fmt::join(cpu_engine_kernel_names(), ", ")));
}

}  // namespace orrery::cpu

namespace orrery {

std::vector<std::string> cpu_engine_kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : cpu::direct_kernels()) names.emplace_back(k.name);
  return names;
}

std::vector<std::string> supported_cpu_engine_kernel_names() {
  std::vector<std::string> names;
  for (const auto& k : cpu::direct_kernels())
    if (k.supported()) names.emplace_back(k.name);
  return names;
}

}  // namespace orrery
