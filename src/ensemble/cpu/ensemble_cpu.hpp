// SPDX-License-Identifier: MIT
// An ensemble on the CPU: every thread runs the widest SIMD lanes the CPU has.
#pragma once

#include "orrery/ensemble/ensemble_run.hpp"

namespace orrery::cpu {

// `setup` is validated; `out` has its arrays sized.
void run_ensemble(const EnsembleSetup& setup, const EnsembleRunOptions& options,
                  EnsembleOutcome& out);

}  // namespace orrery::cpu
