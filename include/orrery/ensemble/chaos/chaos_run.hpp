// SPDX-License-Identifier: MIT
// An ensemble run with an indicator of chaos per trajectory (ensemble/chaos/chaos_trajectory.hpp):
// which indicator, how often its vectors are renormalised, and what comes back. One kernel
// serves the three indicators of one renormalised vector (maximal Lyapunov exponent, FLI,
// MEGNO: the same work gives all three) and an open system's exits (escape); SALI and the
// spectrum have their own, and GALI runs the spectrum's with its vectors kept apart
// (ensemble/chaos/chaos_options.hpp: options that cost no instantiation).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "orrery/ensemble/chaos/chaos_options.hpp"
#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery {

enum class ChaosIndicator { lyapunov, fli, megno, sali, spectrum, gali, escape };
// The kernels: the vectors each carries and the values each reads. gali is the spectrum's
// compiled kernel run with ChaosIndicatorOptions::volumes.
enum class ChaosKernel { growth, sali, spectrum, gali };

// The kernel compiled for a run's kernel: GALI runs the spectrum's (ChaosIndicatorOptions).
constexpr ChaosKernel compiled_chaos_kernel(ChaosKernel k) {
  return k == ChaosKernel::gali ? ChaosKernel::spectrum : k;
}

struct ChaosIndicatorInfo {
  ChaosIndicator indicator;
  std::string_view name, description;
  ChaosKernel kernel;
  int output;  // the value of the kernel's outputs that is this indicator (spectrum: the first;
               // gali: GALI_2, the job takes GALI_k from output k − 1)
};

const std::vector<ChaosIndicatorInfo>& chaos_indicators();
// ParameterError("indicator", name, "one of: ...") for an unknown name.
const ChaosIndicatorInfo& chaos_indicator_info(std::string_view name);
const ChaosIndicatorInfo& chaos_indicator_info(ChaosIndicator indicator);
// The values a kernel reads for a state of `state_words` words.
int chaos_kernel_outputs(ChaosKernel kernel, int state_words);

// The integrators the chaos lanes are compiled for (one-step methods: the vectors are
// renormalised between intervals, ensemble/chaos/tangent_system.hpp), by name.
std::vector<std::string_view> chaos_integrator_names();

struct ChaosSetup {
  // The run: problem, integrator (one of chaos_integrator_names), dt, steps, starts, Data;
  // fp64 only; no tolerance, no section.
  EnsembleSetup ensemble;
  ChaosKernel kernel = ChaosKernel::growth;
  std::int64_t every = 10;  // steps between renormalisations; divides ensemble.steps
  int samples = 1;          // values read at samples evenly spaced intervals (≤ steps/every)
  // CUDA: the exact pair factor 1/r³, which gives the CPU's bits, in place of the GPU's fast one
  // (problems with a pair factor: three bodies; physics/inverse_cube.hpp). The CPU is always exact.
  bool exact_gpu = false;
  // The growth kernel's exits (escape basins; none by default). At most kMaxChaosExits.
  ChaosExits exits;
  // SALI's deviation vectors carried in double-double beside the fp64 state (core/dual.hpp), so
  // that a chaotic orbit's SALI falls below fp64's 10⁻¹⁶ floor: on the CPU, one trajectory a
  // core, for the problems and integrators of chaos_double_double_applies
  // (ensemble/chaos/chaos_catalogue.hpp).
  bool double_double_vectors = false;
};

// Whether SALI with double-double vectors is compiled for a problem and integrator (indices of
// the ensemble catalogue).
bool chaos_double_double_applies(int problem, int integrator);

// What the kernel of a setup's indicator is told at run time.
inline ChaosIndicatorOptions chaos_indicator_options(const ChaosSetup& s) {
  ChaosIndicatorOptions o;
  o.volumes = s.kernel == ChaosKernel::gali;
  o.exits = s.exits;
  return o;
}

struct ChaosOutcome {
  std::int64_t trajectories = 0;
  int outputs = 0, samples = 0;
  // samples × outputs × trajectories: value o of trajectory i at sample s is
  // values[(s·outputs + o)·trajectories + i]. Written by every trajectory.
  UninitialisedVector<double> values;
  std::vector<double> sample_time;  // dt·every·⌈I·s/S⌉
  EnsembleOutcome ensemble;         // the final states (no drift)
  EnsembleRunInfo info;
};

// Throws ParameterError for a setup the lanes do not run (an integrator they are not compiled
// for, a spectrum or GALI of more than 12 words, every not dividing steps, samples out of range,
// exits out of range).
void check_chaos_setup(const ChaosSetup& setup);
ChaosOutcome run_chaos(const ChaosSetup& setup, const EnsembleRunOptions& options);

}  // namespace orrery
