// SPDX-License-Identifier: MIT
// What a force engine is given (EngineOptions) and where it runs (ResolvedBackend), apart from
// the dispatcher that makes engines (nbody/engines.hpp), so that the engines themselves and the
// jobs' parameter tables can name them without it.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "orrery/core/backend.hpp"

namespace orrery {

enum class Multipole { monopole, quadrupole };
const std::vector<std::string>& multipole_names();  // {"monopole", "quadrupole"}

struct EngineOptions {
  double g = 1.0;          // gravitational constant in the run's units
  double softening = 0.0;  // global ε, used when particles carry none
  int threads = 0;         // the most CPU threads (0: all the process may use)
  // The fewest pair interactions (and array elements, for the array updates) worth a CPU thread
  // of their own; 0 takes the defaults measured on the CPU (docs/internals/gravity-cpu.md,
  // "Threads"). Tests set 1 to split even small systems.
  std::size_t min_work_per_thread = 0;
  // Instruction-set variant of a CPU engine: "" the widest this CPU runs, else one of
  // cpu_kernel_names() (device/cpu/cpu_kernels.hpp). Variants may differ in the last bits
  // (docs/internals/gravity-cpu.md).
  std::string cpu_kernel;

  // Where: cpu, cuda, or auto (CUDA when this build has it, a device is present and the
  // precision runs there; else the CPU). `devices` picks GPUs by index (empty: all).
  Backend backend = Backend::cpu;
  std::vector<int> devices;

  // Barnes–Hut: a cell of size s at distance d from a group of targets is taken whole when
  // s < θ d; its field is expanded to `multipole` order.
  double theta = 0.5;
  Multipole multipole = Multipole::quadrupole;
  // Bodies per leaf cell and targets per walking group; 0: the engine's measured defaults.
  int leaf_size = 0;
  int group_size = 0;

  // CUDA direct: targets each thread sums, one of kCudaDirectTargetsPerThread (0: the measured
  // default for the number of bodies, direct_cuda_launch.hpp).
  int targets_per_thread = 0;
};

// The CUDA direct kernel's variants: targets per thread (EngineOptions::targets_per_thread).
inline constexpr std::array<int, 3> kCudaDirectTargetsPerThread{2, 4, 8};

// What a tree engine's potential energy is made of, for the run's record: "tree potentials
// (theta 0.5, quadrupole)".
std::string tree_potential_method(const EngineOptions& options);

// Where resolve_backend() (nbody/engines.hpp) puts an engine: cpu or cuda, and for auto why it
// chose the CPU ("" when it did not).
struct ResolvedBackend {
  Backend backend;
  std::string note;
};

}  // namespace orrery
