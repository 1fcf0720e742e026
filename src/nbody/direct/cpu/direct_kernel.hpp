// SPDX-License-Identifier: MIT
// The direct engine's inner loops, compiled once per instruction set (direct_tiles.cpp) and
// chosen at run time (direct_kernels.cpp). The engine owns threads and memory; a kernel is handed
// a range of targets, sums over all sources, and touches nothing outside its arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace orrery::cpu {

// The system as the kernels read it: positions, masses and ε_i²/2 in SoA (n each).
// ε_ij² = ε_i²/2 + ε_j²/2 has the same bits as (ε_i² + ε_j²)/2: halving is exact.
// The accelerations sum sources j < n_sources only: the bodies after the last one with mass
// (test particles, m = 0) pull nothing, so their pairs with each other are not computed; the
// terms left out are exact zeros, so the sums keep their bits.
template <class Real>
struct DirectSources {
  const Real* x;
  const Real* y;
  const Real* z;
  const Real* mass;
  const Real* half_eps2;
  std::size_t n;
  std::size_t n_sources;
};

// a_i = g Σ_{j≠i} m_j (x_j − x_i)/r_ij³ for the targets i = targets[0..count) (ascending body
// indices), each sum over j in increasing order; the result of a target does not depend on
// which others are listed with it.
template <class Real>
using DirectAccelerationsFn = void (*)(const DirectSources<Real>& s, Real g,
                                       const std::uint32_t* targets, std::size_t count, Real* ax,
                                       Real* ay, Real* az);
// rows[i] = Σ_{j>i} m_i m_j / √(r_ij² + ε_ij²) for i in [begin, end), with compensation.
template <class Real>
using DirectPotentialRowsFn = void (*)(const DirectSources<Real>& s, std::size_t begin,
                                       std::size_t end, double* rows);

// φ_i = −g Σ_{j≠i} m_j / √(r_ij² + ε_ij²) for targets [begin, end), each sum alone.
template <class Real>
using DirectPotentialsFn = void (*)(const DirectSources<Real>& s, Real g, std::size_t begin,
                                    std::size_t end, Real* phi);

struct DirectKernelOps {
  std::size_t block_f64, block_f32;  // targets one block holds in registers
  DirectAccelerationsFn<double> accelerations_f64;
  DirectAccelerationsFn<float> accelerations_f32;
  DirectPotentialRowsFn<double> potential_rows_f64;
  DirectPotentialRowsFn<float> potential_rows_f32;
  DirectPotentialsFn<double> potentials_f64;
  DirectPotentialsFn<float> potentials_f32;
};

struct DirectKernel {
  const char* name;  // "avx512", "avx2", "generic"
  const DirectKernelOps* ops;
};

std::span<const DirectKernel> direct_kernels();  // widest first
// The named kernel ("" the widest this CPU runs); ParameterError("cpu-kernel", ...) if unknown or
// not runnable here.
const DirectKernel& choose_direct_kernel(const std::string& name);

}  // namespace orrery::cpu
