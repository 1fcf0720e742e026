// SPDX-License-Identifier: MIT
// The instruction-set variants of the chaos lanes this build compiled (listed by the generated
// cpu_isa_set.hpp); device/cpu/cpu_isa.hpp chooses among them.
#include <utility>
#include <vector>

#include "cpu_isa_set.hpp"
#include "ensemble/cpu/chaos_task_source.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa)                             \
  namespace isa {                                       \
  template <int Problem>                                \
  void run_chaos_problem(ChaosTaskSource&);             \
  template <int Problem>                                \
  void run_chaos_double_double_problem(ChaosTaskSource&); \
  }
ORRERY_FOR_EACH_LANES_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
#define ORRERY_ENTRY(isa)                                                                      \
  ChaosCpuKernel{#isa,                                                                         \
                 []<int... P>(std::integer_sequence<int, P...>) {                              \
                   return std::array<ChaosCpuKernel::Run, kEnsembleProblemCount>{               \
                       &isa::run_chaos_problem<P>...};                                          \
                 }(std::make_integer_sequence<int, kEnsembleProblemCount>{}),                  \
                 []<int... P>(std::integer_sequence<int, P...>) {                              \
                   return std::array<ChaosCpuKernel::Run, kEnsembleProblemCount>{               \
                       &isa::run_chaos_double_double_problem<P>...};                            \
                 }(std::make_integer_sequence<int, kEnsembleProblemCount>{})},
// Empty where the build has no lanes (ORRERY_ENSEMBLE_LANES off).
const std::vector<ChaosCpuKernel> kKernels{ORRERY_FOR_EACH_LANES_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

std::span<const ChaosCpuKernel> chaos_cpu_kernels() { return kKernels; }

}  // namespace orrery::cpu
