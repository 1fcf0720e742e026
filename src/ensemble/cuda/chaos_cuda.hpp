// SPDX-License-Identifier: MIT
// Indicators of chaos on every GPU named (or all): each device integrates a contiguous share of
// the trajectories and their deviation vectors, in proportion to its multiprocessors.
#pragma once

#include "orrery/ensemble/chaos/chaos_run.hpp"

namespace orrery::cuda {

// `setup` is checked (check_chaos_setup); `out` has its arrays sized.
void run_chaos(const ChaosSetup& setup, const EnsembleRunOptions& options, ChaosOutcome& out);

}  // namespace orrery::cuda
