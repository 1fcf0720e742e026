// SPDX-License-Identifier: MIT
// The instruction sets this build compiled its CPU kernels for ("avx512", "avx2", "generic",
// widest first: every per-ISA file of src/ is compiled for each; ORRERY_CPU_ISAS=native compiles
// one), and those this CPU runs. A kernel is chosen by name; "" takes the widest the CPU runs.
#pragma once

#include <string>
#include <vector>

namespace orrery {

std::vector<std::string> cpu_kernel_names();
std::vector<std::string> supported_cpu_kernel_names();
// Those of the lanes of ensembles and chaos indicators this CPU runs, widest first: the same, or
// under ORRERY_CPU_ISAS=native the widest only (none without ORRERY_ENSEMBLE_LANES).
std::vector<std::string> supported_lanes_kernel_names();
// The widest compiled kernel this CPU runs; throws InputError saying what the build has, what
// the CPU runs and how to rebuild when it runs none (a build for another machine's widest).
std::string widest_cpu_kernel();

}  // namespace orrery
