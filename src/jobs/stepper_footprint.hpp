// SPDX-License-Identifier: MIT
// Values per body an integrator's array stepper allocates (its stages, history, predictor), in
// its own precision's words: what jobs/memory_estimate.cpp adds to a run's state.
#pragma once

#include <string>

namespace orrery {

// Throws ParameterError for an integrator the registry does not know.
double stepper_values_per_body(const std::string& integrator, double tolerance);

}  // namespace orrery
