// SPDX-License-Identifier: MIT
// The instruction-set variants of the tree engine's list sums this build compiled.
#include <string>

#include "cpu_isa_set.hpp"
#include "device/cpu/cpu_isa.hpp"
#include "tree_kernel.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa) \
  namespace isa {           \
  extern const TreeKernelOps tree_kernel_ops; \
  }
ORRERY_FOR_EACH_CPU_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
#define ORRERY_ENTRY(isa) TreeKernel{#isa, &isa::tree_kernel_ops},
constexpr TreeKernel kKernels[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

const TreeKernel& choose_tree_kernel(const std::string& name) {
  return choose_kernel<TreeKernel>(kKernels, name);
}

}  // namespace orrery::cpu
