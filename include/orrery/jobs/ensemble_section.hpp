// SPDX-License-Identifier: MIT
// The surface of section of `orrery ensemble` (--section NAME=VALUE, --section-direction,
// --max-crossings, --section-plot): read from the job before any work, summarised per run, and
// drawn as the classic picture, every trajectory's crossings in the section's plane.
#pragma once

#include <array>

#include "orrery/ensemble/ensemble_catalogue.hpp"
#include "orrery/io/png_file.hpp"
#include "orrery/jobs/ensemble_job.hpp"

namespace orrery {

// The job's section for problem index `problem` (word < 0 without --section). ParameterError
// naming the flag: a word the problem does not have, a value that is not a finite number,
// --section-plot without --section.
EnsembleSection ensemble_section_of(const EnsembleJob& job, int problem);

// "x = 0 (up)".
std::string describe_section(const EnsembleSection& s, const EnsembleProblemInfo& info);

// The two words of the section's plane drawn horizontally and vertically: for a coordinate q_i
// of H = |p|²/2 + V(q) with two or more coordinates, the first other coordinate and its momentum
// (Hénon–Heiles x = 0: y and py); otherwise the first two other state words, the time (index D)
// standing in where there is only one.
std::array<int, 2> section_plane(const EnsembleProblemInfo& info, int word);

// The run's crossings in all, and those beyond the capacity (EnsembleRunResult).
void summarise_section(EnsembleRunResult& r, int capacity);

// The crossings of the first run (with several, the title names it) in the section's plane,
// each trajectory its own colour, or with --section-colour-by an indicator the colour of its
// value on orrery chaos's scale, with the scale's bar beside the plot.
RgbImage draw_ensemble_section(const EnsembleJob& job, const EnsembleJobOutcome& outcome);

}  // namespace orrery
