// SPDX-License-Identifier: MIT
// The instruction-set variants of the divergence-map kernel this build compiled (listed by the
// generated cpu_isa_set.hpp); device/cpu/cpu_isa.hpp chooses among them.
#include "cpu_isa_set.hpp"
#include "device/cpu/cpu_isa.hpp"
#include <utility>

#include "ensemble/cpu/twin_task_source.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa)                                                 \
  namespace isa {                                                           \
  template <int Integrator>                                                 \
  void run_twin_lanes(const DivergenceSetup&, Precision, TwinTaskSource&); \
  }
ORRERY_FOR_EACH_CPU_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
// One entry per instruction set, each with its kernel for every map integrator.
#define ORRERY_ENTRY(isa)                                                           \
  CpuKernel{#isa, []<int... I>(std::integer_sequence<int, I...>) {                 \
              return std::array<CpuKernel::Run, kMapIntegratorCount>{             \
                  &isa::run_twin_lanes<I>...};                                    \
            }(std::make_integer_sequence<int, kMapIntegratorCount>{})},
constexpr CpuKernel kKernels[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

std::span<const CpuKernel> cpu_kernels() { return kKernels; }

}  // namespace orrery::cpu
