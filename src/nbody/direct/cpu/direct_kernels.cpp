// SPDX-License-Identifier: MIT
// The instruction-set variants of the direct engine this build compiled (listed by the
// generated cpu_isa_set.hpp); device/cpu/cpu_isa.hpp chooses among them.
#include "cpu_isa_set.hpp"
#include "device/cpu/cpu_isa.hpp"
#include "direct_kernel.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa) \
  namespace isa {           \
  extern const DirectKernelOps direct_kernel_ops; \
  }
ORRERY_FOR_EACH_CPU_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
#define ORRERY_ENTRY(isa) DirectKernel{#isa, &isa::direct_kernel_ops},
constexpr DirectKernel kKernels[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

std::span<const DirectKernel> direct_kernels() { return kKernels; }

const DirectKernel& choose_direct_kernel(const std::string& name) {
  return choose_kernel<DirectKernel>(kKernels, name);
}

}  // namespace orrery::cpu
