// SPDX-License-Identifier: MIT
#pragma once

#include <span>

#include "orrery/ensemble/divergence_counts.hpp"
#include "orrery/ensemble/map_run_options.hpp"
#include "orrery/ensemble/problems/divergence3/divergence_setup.hpp"
#include "orrery/ensemble/problems/divergence3/reference_orbit.hpp"

namespace orrery::cpu {

// All cores (or options.threads) over the grid or the listed pixels; fills counts, nonfinite,
// pixel_steps and info. `reference`: the frame's reference trajectory, for
// --deep perturbation.
DivergenceCounts run_divergence_map(const DivergenceSetup& setup,
                                    std::span<const PixelIndex> pixels,
                                    const MapRunOptions& options,
                                    const ReferenceOrbit* reference = nullptr);

}  // namespace orrery::cpu
