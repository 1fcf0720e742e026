// SPDX-License-Identifier: MIT
// The instruction-set variants of the divergence-map kernel this build compiled (CMake defines
// ORRERY_HAVE_KERNEL_<name>); device/cpu/cpu_isa.hpp chooses among them.
#include "device/cpu/cpu_isa.hpp"
#include "twin_task_source.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa) \
  namespace isa {           \
  void run_twin_lanes(const DivergenceSetup&, Precision, TwinTaskSource&); \
  }
ORRERY_FOR_EACH_CPU_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
#define ORRERY_ENTRY(isa) CpuKernel{#isa, isa::run_twin_lanes},
constexpr CpuKernel kKernels[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

std::span<const CpuKernel> cpu_kernels() { return kKernels; }

}  // namespace orrery::cpu
