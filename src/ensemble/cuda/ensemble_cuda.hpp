// SPDX-License-Identifier: MIT
// An ensemble on every GPU named (or all): each device integrates a contiguous share of the
// trajectories, in proportion to its multiprocessors.
#pragma once

#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery::cuda {

// `setup` is validated; `out` has its arrays sized.
void run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options,
                  EnsembleOutcome& out);

}  // namespace orrery::cuda
