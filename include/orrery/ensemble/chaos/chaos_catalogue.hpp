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

// Whether a kernel runs for a problem: the spectrum (and GALI) for at most kMaxSpectrumWords
// words.
template <class Problem, ChaosKernel Kernel>
inline constexpr bool chaos_kernel_applies =
    compiled_chaos_kernel(Kernel) != ChaosKernel::spectrum ||
    EnsembleSystem<Problem, double>::D <= kMaxSpectrumWords;

}  // namespace orrery
