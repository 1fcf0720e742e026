// SPDX-License-Identifier: MIT
// Values per body an integrator's array stepper allocates (its stages, history, predictor), in
// its own precision's words: what jobs/memory_estimate.cpp adds to a run's state.
#pragma once

#include <string>

namespace orrery {

// 0 for a name or tolerance the registry refuses: the job's checks report those.
double stepper_values_per_body(const std::string& integrator, double tolerance);

}  // namespace orrery
