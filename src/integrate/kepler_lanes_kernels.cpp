// SPDX-License-Identifier: MIT
// The instruction-set variants of the Kepler lanes this build compiled (listed by the generated
// cpu_isa_set.hpp), the widest this CPU runs chosen once. They give the same bits, so there is no
// choice to offer and no error to name: `generic` runs everywhere.
#include <string_view>

#include "cpu_isa_set.hpp"
#include "integrate/kepler_lanes.hpp"

namespace orrery::cpu {

bool isa_supported(std::string_view isa);  // device/cpu/cpu_isa.hpp (its fmt left out here)

#define ORRERY_DECLARE(isa) \
  namespace isa {           \
  extern const KeplerDriftsFn kepler_drifts_f64; \
  }
ORRERY_FOR_EACH_CPU_ISA(ORRERY_DECLARE)
#undef ORRERY_DECLARE

const KeplerLanesKernel& widest_kepler_lanes() {
#define ORRERY_ENTRY(isa) KeplerLanesKernel{#isa, isa::kepler_drifts_f64},
  static const KeplerLanesKernel kKernels[] = {ORRERY_FOR_EACH_CPU_ISA(ORRERY_ENTRY)};
#undef ORRERY_ENTRY
  static const KeplerLanesKernel& chosen = [&]() -> const KeplerLanesKernel& {
    for (const KeplerLanesKernel& k : kKernels)
      if (isa_supported(k.name)) return k;
    return kKernels[std::size(kKernels) - 1];  // generic, the last
  }();
  return chosen;
}

}  // namespace orrery::cpu
