// SPDX-License-Identifier: MIT
// Force engines by name. Every engine computes the same softened Newtonian gravity,
//   a_i = G Σ_{j≠i} m_j (x_j − x_i) / (|x_j − x_i|² + ε_ij²)^{3/2},
// with ε_ij = ε (global) or ε_ij² = (ε_i² + ε_j²)/2 when particles carry their own softening.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/device/cpu/cpu_kernels.hpp"
#include "orrery/nbody/force_engine.hpp"

namespace orrery {

struct EngineOptions {
  double g = 1.0;          // gravitational constant in the run's units
  double softening = 0.0;  // global ε, used when particles carry none
  int threads = 0;         // the most CPU threads (0: all the process may use)
  // The fewest pair interactions (and array elements, for the array updates) worth a CPU thread
  // of their own; 0 takes the defaults measured on the CPU (docs/gravity-cpu.md, "Threads").
  // Tests set 1 to split even small systems.
  std::size_t min_work_per_thread = 0;
  // Instruction-set variant of a CPU engine: "" the widest this CPU runs, else one of
  // cpu_kernel_names() (device/cpu/cpu_kernels.hpp). Variants may differ in the last bits (docs/gravity-cpu.md).
  std::string cpu_kernel;
};

// Throws ParameterError("engine", name, the valid names) for an unknown name.
template <class Real>
std::unique_ptr<ForceEngine<Real>> make_force_engine(std::string_view name,
                                                     const EngineOptions& options);
std::vector<std::string> force_engine_names();

// CPU engines' instruction-set variants compiled into this build (widest first), and those this
// CPU runs.

}  // namespace orrery
