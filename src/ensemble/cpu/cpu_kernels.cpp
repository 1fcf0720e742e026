// SPDX-License-Identifier: MIT
// The instruction-set variants of the divergence-map kernel this build compiled (CMake defines
// ORRERY_HAVE_KERNEL_<name>); core/cpu_isa.hpp chooses among them.
#include "twin_task_source.hpp"

namespace orrery::cpu {

#define ORRERY_DECLARE_KERNEL(name) \
  namespace name {                  \
  void run_twin_lanes(const DivergenceSetup&, Precision, TwinTaskSource&); \
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
constexpr CpuKernel kKernels[] = {
#if defined(ORRERY_HAVE_KERNEL_avx512)
    {"avx512", avx512::run_twin_lanes},
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
    {"avx2", avx2::run_twin_lanes},
#endif
    {"generic", generic::run_twin_lanes},
};
}  // namespace

std::span<const CpuKernel> cpu_kernels() { return kKernels; }

}  // namespace orrery::cpu
