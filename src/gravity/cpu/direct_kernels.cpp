// SPDX-License-Identifier: MIT
// The instruction-set variants of the direct engine this build compiled (CMake defines
// ORRERY_HAVE_KERNEL_<name>); core/cpu_isa.hpp chooses among them.
#include "core/cpu_isa.hpp"
#include "direct_kernel.hpp"

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
constexpr DirectKernel kKernels[] = {
#if defined(ORRERY_HAVE_KERNEL_avx512)
    {"avx512", &avx512::direct_kernel_ops},
#endif
#if defined(ORRERY_HAVE_KERNEL_avx2)
    {"avx2", &avx2::direct_kernel_ops},
#endif
    {"generic", &generic::direct_kernel_ops},
};
}  // namespace

std::span<const DirectKernel> direct_kernels() { return kKernels; }

const DirectKernel& choose_direct_kernel(const std::string& name) {
  return choose_kernel<DirectKernel>(kKernels, name);
}

}  // namespace orrery::cpu
