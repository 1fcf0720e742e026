// SPDX-License-Identifier: MIT
// What the chaos lanes and kernels are compiled for: every problem of the ensemble catalogue
// (ensemble/ensemble_catalogue.hpp) with these one-step integrators — the symplectic
// compositions a Hamiltonian's tangent map wants (ensemble/chaos/tangent_system.hpp) and two
// Runge–Kutta methods for first-order systems. Each added table multiplies the compile time of
// the lanes by problems × kernels × instruction sets.
#pragma once

#include "orrery/ensemble/chaos/chaos_run.hpp"
#include "orrery/ensemble/chaos/growth_indicators.hpp"
#include "orrery/ensemble/chaos/lyapunov_spectrum.hpp"
#include "orrery/ensemble/chaos/sali_indicator.hpp"
#include "orrery/ensemble/ensemble_catalogue.hpp"

namespace orrery {

using ChaosIntegrators = TableList<LeapfrogKDK, Yoshida4, Yoshida6, ClassicRK4, DormandPrince853>;

// The indicator type of a kernel, for a lane type T and D state words.
template <ChaosKernel Kernel, class T, int D>
struct ChaosKernelIndicator;
template <class T, int D>
struct ChaosKernelIndicator<ChaosKernel::growth, T, D> {
  using type = GrowthIndicators<T, D>;
};
template <class T, int D>
struct ChaosKernelIndicator<ChaosKernel::sali, T, D> {
  using type = SaliIndicator<T, D>;
};
template <class T, int D>
struct ChaosKernelIndicator<ChaosKernel::spectrum, T, D> {
  using type = LyapunovSpectrum<T, D>;
};

// Whether SALI with double-double deviation vectors (ChaosSetup::double_double_vectors) is
// compiled for a problem and integrator: a Hamiltonian problem of at most 6 state words whose
// field the lanes inline (Hénon–Heiles, a polynomial potential of few coefficients) with a
// splitting method, the symplectic maps SALI is read on. Each is a kernel of its own, compiled
// once per instruction set (src/ensemble/cpu/chaos_dd_lanes.cpp), so the list is short.
template <class Problem, class Table>
inline constexpr bool chaos_double_double_compiled = [] {
  constexpr bool out_of_line = [] {
    if constexpr (requires { Problem::field_out_of_line; })
      return Problem::field_out_of_line;
    else
      return false;
  }();
  return Problem::second_order && !out_of_line && EnsembleSystem<Problem, double>::D <= 6 &&
         Table::family == IntegratorFamily::splitting;
}();

// Whether a kernel runs for a problem: the spectrum (and GALI) for at most kMaxSpectrumWords
// words.
template <class Problem, ChaosKernel Kernel>
inline constexpr bool chaos_kernel_applies =
    compiled_chaos_kernel(Kernel) != ChaosKernel::spectrum ||
    EnsembleSystem<Problem, double>::D <= kMaxSpectrumWords;

}  // namespace orrery
