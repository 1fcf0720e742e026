// SPDX-License-Identifier: MIT
// A surface of section coloured by an indicator of chaos (`orrery section --colour-by`,
// `orrery ensemble --section-colour-by`): each orbit's indicator computed by the chaos lanes
// (ensemble/chaos/) over the same starts with the section run's integrator, step and time, so
// that the value is the one `orrery chaos` gives for that start, and drawn on the scale
// `orrery chaos` draws it in (jobs/chaos_job.hpp, chaos_scale).
#pragma once

#include <string>
#include <vector>

#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

// What the crossings can be coloured by: "orbit", then the indicators.
const std::vector<std::string>& section_colourings();

// ParameterError naming --section-colour-by for an indicator where the chaos lanes cannot make
// the section's run: no --section, more than one integrator or precision, not fp64, a
// tolerance, or an integrator they are not compiled for.
void check_section_colouring(const EnsembleJob& job, int problem);

// The steps between renormalisations: orrery chaos's default 10, or the largest divisor of
// `steps` below it (every interval the same time).
std::int64_t section_indicator_every(std::int64_t steps);

// The indicator of every trajectory of a job with --section-colour-by an indicator (every rank
// calls it; rank 0's result has the values).
SectionIndicator section_indicator_of(const EnsembleJob& job, const EnsembleJobOutcome& outcome,
                                      const EnsembleRunOptions& options);

// One line for a summary: "sali of every orbit in 1.2 s on cpu (avx512); chaotic (sali < 1e-08):
// 45.0% of 60 orbits".
std::string describe_section_indicator(const SectionIndicator& indicator);

}  // namespace orrery
