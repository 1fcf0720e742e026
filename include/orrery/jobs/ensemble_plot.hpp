// SPDX-License-Identifier: MIT
// The energy drift of an ensemble's runs against time, one curve per integrator and precision:
// the median |ΔE/E| over the trajectories at each sample, on a logarithmic axis (the published
// point about symplectic methods and reduced precision as a picture).
#pragma once

#include "orrery/io/png_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

RgbImage draw_ensemble_drift(const EnsembleJob& job, const EnsembleJobOutcome& outcome);

}  // namespace orrery
