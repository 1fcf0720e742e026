// SPDX-License-Identifier: MIT
// Running an ensemble (ensemble/ensemble_run.hpp) on a backend: the same trajectories, the same
// arithmetic, on the CPU's SIMD lanes or one GPU thread each.
#pragma once

#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery {

// Validates the setup and the options (ParameterError, InputError) before any work starts.
EnsembleOutcome run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options = {});

// The accepted ranges, for the faces' help and the validation alike.
inline constexpr int kEnsembleMaxSamples = 100000;

}  // namespace orrery
