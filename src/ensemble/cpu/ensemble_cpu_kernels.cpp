// SPDX-License-Identifier: MIT
// The instruction-set variants of the ensemble lanes this build compiled (listed by the
// generated cpu_isa_set.hpp); device/cpu/cpu_isa.hpp chooses among them.
#include <utility>
#include <vector>

#include "cpu_isa_set.hpp"
#include "device/cpu/cpu_isa.hpp"
#include "ensemble/cpu/ensemble_task_source.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE(isa)                                 \
  namespace isa {                                           \
  template <int Problem>                                    \
  void run_ensemble_problem(EnsembleTaskSource&);           \
  template <int Problem>                                    \
  void run_section_problem(EnsembleTaskSource&);            \
  }
ORRERY_FOR_EACH_LANES_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

namespace {
// One entry per instruction set, each with its lanes for every problem, without and with a
// section.
#define ORRERY_ENTRY(isa)                                                                 \
  EnsembleCpuKernel{#isa,                                                                 \
                    []<int... P>(std::integer_sequence<int, P...>) {                     \
                      return std::array<EnsembleCpuKernel::Run, kEnsembleProblemCount>{ \
                          &isa::run_ensemble_problem<P>...};                            \
                    }(std::make_integer_sequence<int, kEnsembleProblemCount>{}),          \
                    []<int... P>(std::integer_sequence<int, P...>) {                     \
                      return std::array<EnsembleCpuKernel::Run, kEnsembleProblemCount>{ \
                          &isa::run_section_problem<P>...};                             \
                    }(std::make_integer_sequence<int, kEnsembleProblemCount>{})},
// Empty where the build has no lanes (ORRERY_ENSEMBLE_LANES off).
const std::vector<EnsembleCpuKernel> kKernels{ORRERY_FOR_EACH_LANES_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
}  // namespace

std::span<const EnsembleCpuKernel> ensemble_cpu_kernels() { return kKernels; }

}  // namespace orrery::cpu
